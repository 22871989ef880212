package dev.consistentcut.cli;

import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.Partitioning;
import dev.consistentcut.operator.KeyedCount;
import dev.consistentcut.operator.RecordingSink;
import dev.consistentcut.source.InMemorySourceLog;

/**
 * The demo job: two sources of {@code records} records each (keys 0-99, drawn from the seed) into
 * a keyed count, by default with parallelism 2 (hash-partitioned by key group, so each count instance has two inputs and
 * alignment matters), then one slow sink.
 */
final class DemoJob {

    static final int KEYS = 100;

    private DemoJob() {
    }

    static JobGraph build(int records, long seed, long sinkDelayNanos, int capacity, int parallelism,
                          int maxParallelism) {
        return JobGraph.builder()
                .defaultCapacity(capacity)
                .maxParallelism(maxParallelism)
                .source("s1", InMemorySourceLog.randomKeys(records, KEYS, seed))
                .source("s2", InMemorySourceLog.randomKeys(records, KEYS, seed + 1))
                .operator("count", parallelism, KeyedCount::new)
                .operator("sink", 1, () -> new RecordingSink(sinkDelayNanos))
                .edge("s1", "count", Partitioning.HASH)
                .edge("s2", "count", Partitioning.HASH)
                .edge("count", "sink", Partitioning.HASH)
                .build();
    }

    /** The graph {@link #build} builds, in words: the job manifest records it. */
    static String describe(int records, long seed, int capacity, int parallelism, int maxParallelism) {
        return "demo: s1 (" + records + " records, keys 0-" + (KEYS - 1) + ", seed " + seed + "), s2 (" + records
                + " records, seed " + (seed + 1) + ") -HASH-> count x" + parallelism + " (KeyedCount) -HASH-> sink x1"
                + " (RecordingSink); channel capacity " + capacity + "; max parallelism " + maxParallelism;
    }
}
