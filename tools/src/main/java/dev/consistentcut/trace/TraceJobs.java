package dev.consistentcut.trace;

import dev.consistentcut.annotation.TestSeam;
import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.Partitioning;
import dev.consistentcut.operator.Join;
import dev.consistentcut.operator.KeyedCount;
import dev.consistentcut.operator.MapOperator;
import dev.consistentcut.operator.Operator;
import dev.consistentcut.operator.RecordingSink;
import dev.consistentcut.sink.MemorySinkDirectory;
import dev.consistentcut.sink.SinkDirectory;
import dev.consistentcut.sink.TransactionalFileSink;
import dev.consistentcut.source.InMemorySourceLog;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;

/**
 * The jobs traces are recorded from: small, so that a trace has a few hundred events and TLC
 * checks it in seconds, and with operators of several inputs, where the protocols differ.
 * Keys are drawn from the seed.
 */
public final class TraceJobs {

    /**
     * Most records per source of a job run with the engine's invariant checks (trace record, and
     * the CLI's run): beyond it the ledgers the checks keep outgrow a default heap.
     */
    public static final int MAX_RECORDS = 2_000_000;

    /** The names {@link #build} knows. */
    public static final List<String> NAMES = List.of("demo", "join", "diamond", "fanin", "sink");

    private TraceJobs() {
    }

    /**
     * @param name {@code demo}: the demo job's shape (two sources, hash into a count with
     *     parallelism 2, then a sink); {@code join}: two sources into a two-input join with
     *     parallelism 2, then a sink; {@code diamond}: one source fanning out to a broadcast map
     *     (parallelism 2) and a keyed count that fan in at a join, then a sink; {@code fanin}: three
     *     sources into one keyed count (a task with three inputs) whose output goes both to a map
     *     of parallelism 2 and straight to the sink (a task with three outputs), the sink taking
     *     three inputs again; {@code sink}: the demo's shape ending in the two-phase-commit
     *     sink ({@link TransactionalFileSink} on a fresh {@link MemorySinkDirectory}), to be
     *     recorded with end of input
     * @param records records per source
     * @param capacity records per channel
     * @param sinkDelayNanos the threaded runtime's pause per record in the sink (a slow sink keeps
     *     data in flight while checkpoints run); the simulation ignores it
     * @throws IllegalArgumentException naming the known jobs for another name
     */
    public static JobGraph build(String name, int records, int capacity, long seed, long sinkDelayNanos) {
        SplittableRandom r = new SplittableRandom(seed);
        JobGraph.Builder b = JobGraph.builder().defaultCapacity(capacity);
        return switch (name) {
            case "demo" -> b.source("s1", log(records, r)).source("s2", log(records, r))
                    .operator("count", 2, KeyedCount::new)
                    .operator("sink", 1, () -> new RecordingSink(sinkDelayNanos))
                    .edge("s1", "count", Partitioning.HASH)
                    .edge("s2", "count", Partitioning.HASH)
                    .edge("count", "sink", Partitioning.HASH)
                    .build();
            case "join" -> b.source("left", log(records, r)).source("right", log(records, r))
                    .operator("join", 2, Join::new)
                    .operator("sink", 1, () -> new RecordingSink(sinkDelayNanos))
                    .edge("left", "join", Partitioning.HASH)
                    .edge("right", "join", Partitioning.HASH)
                    .edge("join", "sink", Partitioning.HASH)
                    .build();
            case "diamond" -> b.source("s", log(records, r))
                    .operator("wide", 2, () -> new MapOperator(v -> v + 1))
                    .operator("count", 1, KeyedCount::new)
                    .operator("join", 1, Join::new)
                    .operator("sink", 1, () -> new RecordingSink(sinkDelayNanos))
                    .edge("s", "wide", Partitioning.BROADCAST)
                    .edge("s", "count", Partitioning.HASH)
                    .edge("wide", "join", Partitioning.HASH)
                    .edge("count", "join", Partitioning.HASH)
                    .edge("join", "sink", Partitioning.FORWARD)
                    .build();
            case "fanin" -> b.source("s1", log(records, r)).source("s2", log(records, r))
                    .source("s3", log(records, r))
                    .operator("count", 1, KeyedCount::new)
                    .operator("double", 2, () -> new MapOperator(v -> 2 * v))
                    .operator("sink", 1, () -> new RecordingSink(sinkDelayNanos))
                    .edge("s1", "count", Partitioning.HASH)
                    .edge("s2", "count", Partitioning.HASH)
                    .edge("s3", "count", Partitioning.HASH)
                    .edge("count", "double", Partitioning.HASH)
                    .edge("count", "sink", Partitioning.FORWARD)
                    .edge("double", "sink", Partitioning.HASH)
                    .build();
            case "sink" -> withSink(records, capacity, seed, dir -> new TransactionalFileSink(dir, sinkDelayNanos));
            default -> throw new IllegalArgumentException("unknown job '" + name + "'; known: " + String.join(", ", NAMES));
        };
    }

    /**
     * The {@code sink} job with the sink {@code sink} makes from its directory (a fresh
     * {@link MemorySinkDirectory}): the seam through which a test records a broken sink's trace.
     */
    @TestSeam
    public static JobGraph withSink(int records, int capacity, long seed,
                                    Function<SinkDirectory, ? extends Operator> sink) {
        SplittableRandom r = new SplittableRandom(seed);
        MemorySinkDirectory dir = new MemorySinkDirectory();
        return JobGraph.builder().defaultCapacity(capacity)
                .source("s1", log(records, r)).source("s2", log(records, r))
                .operator("count", 2, KeyedCount::new)
                .operator("sink", 1, () -> sink.apply(dir))
                .edge("s1", "count", Partitioning.HASH)
                .edge("s2", "count", Partitioning.HASH)
                .edge("count", "sink", Partitioning.HASH)
                .build();
    }

    private static InMemorySourceLog log(int records, SplittableRandom r) {
        return InMemorySourceLog.randomKeys(records, 6, r.nextLong());
    }
}
