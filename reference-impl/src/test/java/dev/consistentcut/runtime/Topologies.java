package dev.consistentcut.runtime;

import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.Partitioning;
import dev.consistentcut.operator.Join;
import dev.consistentcut.operator.KeyedCount;
import dev.consistentcut.operator.MapOperator;
import dev.consistentcut.operator.RecordingSink;
import dev.consistentcut.operator.Sum;
import dev.consistentcut.source.InMemorySourceLog;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.LongFunction;

/**
 * Small jobs for the seeded simulation runs: each a factory from a seed (which picks the input
 * sizes, 10-30 records per source, keys and capacities) to a job graph.
 */
final class Topologies {

    private Topologies() {
    }

    record Topology(String name, LongFunction<JobGraph> build) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static InMemorySourceLog log(SplittableRandom r) {
        return InMemorySourceLog.randomKeys(10 + r.nextInt(21), 6, r.nextLong());
    }

    private static int capacity(SplittableRandom r) {
        return 1 + r.nextInt(3);
    }

    /** The demo job: two sources into a keyed count with parallelism 2, then one sink. */
    static JobGraph demo(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        return JobGraph.builder()
                .defaultCapacity(capacity(r))
                .source("s1", log(r))
                .source("s2", log(r))
                .operator("count", 2, KeyedCount::new)
                .operator("sink", 1, RecordingSink::new)
                .edge("s1", "count", Partitioning.HASH)
                .edge("s2", "count", Partitioning.HASH)
                .edge("count", "sink", Partitioning.HASH)
                .build();
    }

    /** A two-input join with parallelism 2 fed by two keyed sources, then a sink. */
    static JobGraph join(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        return JobGraph.builder()
                .defaultCapacity(capacity(r))
                .source("left", log(r))
                .source("right", log(r))
                .operator("join", 2, Join::new)
                .operator("sink", 1, RecordingSink::new)
                .edge("left", "join", Partitioning.HASH)
                .edge("right", "join", Partitioning.HASH)
                .edge("join", "sink", Partitioning.HASH)
                .build();
    }

    /**
     * A diamond: the source fans out to a broadcast branch (two map instances, each sees every
     * record) and a keyed count; both fan back in at a join. Each record reaches the join on
     * three routes.
     */
    static JobGraph diamond(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        return JobGraph.builder()
                .defaultCapacity(capacity(r))
                .source("s", log(r))
                .operator("wide", 2, () -> new MapOperator(v -> v + 1))
                .operator("count", 1, KeyedCount::new)
                .operator("join", 1, Join::new)
                .operator("sink", 1, RecordingSink::new)
                .edge("s", "wide", Partitioning.BROADCAST)
                .edge("s", "count", Partitioning.HASH)
                .edge("wide", "join", Partitioning.HASH)
                .edge("count", "join", Partitioning.HASH)
                .edge("join", "sink", Partitioning.FORWARD)
                .build();
    }

    /** A keyed parallel chain: a source with two instances, forward to a map, then count, sum and sink, re-keyed at each step. */
    static JobGraph chain(long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        return JobGraph.builder()
                .defaultCapacity(capacity(r))
                .source("s", log(r), log(r))
                .operator("map", 2, () -> new MapOperator(v -> v * 2))
                .operator("count", 3, KeyedCount::new)
                .operator("sum", 2, Sum::new)
                .operator("sink", 1, RecordingSink::new)
                .edge("s", "map", Partitioning.FORWARD)
                .edge("map", "count", Partitioning.HASH)
                .edge("count", "sum", Partitioning.HASH)
                .edge("sum", "sink", Partitioning.HASH)
                .build();
    }

    /**
     * Fan-in and fan-out: three sources into one keyed count (a task with three inputs) whose
     * output goes both to a map of parallelism 2 and straight to the sink (a task with three
     * outputs), the sink taking three inputs again. {@code records} per source, each source's keys
     * drawn from the seed in turn: the {@code fanin} job of the trace tools, built here because the
     * engine's tests cannot use the tools module.
     */
    static JobGraph fanin(int records, int capacity, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        return JobGraph.builder()
                .defaultCapacity(capacity)
                .source("s1", InMemorySourceLog.randomKeys(records, 6, r.nextLong()))
                .source("s2", InMemorySourceLog.randomKeys(records, 6, r.nextLong()))
                .source("s3", InMemorySourceLog.randomKeys(records, 6, r.nextLong()))
                .operator("count", 1, KeyedCount::new)
                .operator("double", 2, () -> new MapOperator(v -> 2 * v))
                .operator("sink", 1, RecordingSink::new)
                .edge("s1", "count", Partitioning.HASH)
                .edge("s2", "count", Partitioning.HASH)
                .edge("s3", "count", Partitioning.HASH)
                .edge("count", "double", Partitioning.HASH)
                .edge("count", "sink", Partitioning.FORWARD)
                .edge("double", "sink", Partitioning.HASH)
                .build();
    }

    static final List<Topology> ALL = List.of(
            new Topology("demo", Topologies::demo),
            new Topology("join", Topologies::join),
            new Topology("diamond", Topologies::diamond),
            new Topology("chain", Topologies::chain));

    /** The topologies with an operator of several inputs, where alignment matters. */
    static final List<Topology> MULTI_INPUT = List.of(
            new Topology("demo", Topologies::demo),
            new Topology("join", Topologies::join),
            new Topology("diamond", Topologies::diamond));
}
