package dev.consistentcut.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.check.CutInvariants;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.Partitioning;
import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import dev.consistentcut.operator.KeyedCount;
import dev.consistentcut.operator.RecordingSink;
import dev.consistentcut.source.InMemorySourceLog;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Real threads, small inputs; assertions on outcomes only, never on timing. */
class ThreadedRuntimeTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    static JobGraph demo(int records, long sinkDelayNanos, int capacity) {
        return JobGraph.builder()
                .defaultCapacity(capacity)
                .source("s1", InMemorySourceLog.randomKeys(records, 16, 1))
                .source("s2", InMemorySourceLog.randomKeys(records, 16, 2))
                .operator("count", 2, KeyedCount::new)
                .operator("sink", 1, () -> new RecordingSink(sinkDelayNanos))
                .edge("s1", "count", Partitioning.HASH)
                .edge("s2", "count", Partitioning.HASH)
                .edge("count", "sink", Partitioning.HASH)
                .build();
    }

    @ParameterizedTest
    @ValueSource(strings = {"aligned", "unaligned"})
    void demoCompletesWithAFailureAndRecoveryExactlyOnce(String modeName) {
        BarrierMode mode = BarrierHandlers.byName(modeName);
        ThreadedRuntime runtime = new ThreadedRuntime(demo(300, 20_000, 4), mode, RunOptions.builder()
                .checkpointInterval(2 * MS)
                .failAfterCheckpoint(2)
                .build());
        RunResult r = runtime.run();
        assertTrue(r.holds(), r.violations().toString());
        assertEquals(1, r.failures());
        assertTrue(r.checkpoints().size() >= 2, "checkpoints: " + r.checkpoints().size());
        List<RecordId> received = ((RecordingSink) runtime.operatorTask("sink#0").operator()).received()
                .stream().map(Record::id).sorted().toList();
        assertEquals(600, received.size());
        assertEquals(600, received.stream().distinct().count(), "every record exactly once at the sink");
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2, 3, 4, 5, 6, 7})
    void everyTopologyRecoversExactlyOnceUnderRealConcurrency(int run) {
        Topologies.Topology topology = Topologies.ALL.get(run % Topologies.ALL.size());
        BarrierMode mode = run < 4 ? BarrierHandlers.aligned() : BarrierHandlers.unaligned();
        for (int repeat = 0; repeat < 5; repeat++) {
            long seed = run * 100L + repeat;
            List<CompletedCheckpoint> completed = new java.util.concurrent.CopyOnWriteArrayList<>();
            RunResult r = new ThreadedRuntime(topology.build().apply(seed), mode, RunOptions.builder()
                    .checkpointInterval(0)
                    .maxConcurrentAligned(2)
                    .failAfterCheckpoint(1 + repeat % 3)
                    .onCheckpoint(completed::add)
                    .build()).run();
            assertTrue(r.holds(), topology + " " + mode.name() + " seed " + seed + ": " + r.violations());
            assertEquals(1, r.failures());
            completed.forEach(c -> assertTrue(new CutInvariants(
                    dev.consistentcut.graph.PhysicalGraph.of(topology.build().apply(seed))).consistentCut(c).isEmpty()));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"aligned", "unaligned"})
    void failAndRestoreFromAnotherThreadWhileRunning(String modeName) throws Exception {
        CountDownLatch firstCheckpoint = new CountDownLatch(1);
        ThreadedRuntime runtime = new ThreadedRuntime(demo(1000, 100_000, 2), BarrierHandlers.byName(modeName),
                RunOptions.builder()
                        .checkpointInterval(MS)
                        .onCheckpoint(c -> firstCheckpoint.countDown())
                        .build());
        CompletableFuture<RunResult> result = CompletableFuture.supplyAsync(runtime::run);
        firstCheckpoint.await();
        runtime.failAndRestore();
        RunResult r = result.get();
        assertTrue(r.holds(), r.violations().toString());
        assertEquals(1, r.failures());
    }

    @ParameterizedTest
    @ValueSource(strings = {"aligned", "unaligned"})
    void checkpointsAbortedWhileTheirBarriersTravelLeaveTheRunExactlyOnce(String modeName) {
        // A timeout of 1 ns aborts almost every checkpoint while its barriers are still on the way;
        // how many is up to the scheduler, so only the outcome is asserted. An aborted checkpoint
        // leaves flight at once (Flink), so without a pause between triggers the coordinator would
        // trigger (and abort) tens of thousands of them: 100 us apart, as Flink's minimum pause.
        RunResult r = new ThreadedRuntime(demo(400, 10_000, 4), BarrierHandlers.byName(modeName), RunOptions.builder()
                .checkpointInterval(java.util.concurrent.TimeUnit.MICROSECONDS.toNanos(100))
                .checkpointTimeout(1)
                .maxConcurrentAligned(2)
                .build()).run();
        assertTrue(r.holds(), r.violations().toString());
    }

    @org.junit.jupiter.api.Test
    void failAndRestoreWithoutARunningRunIsRefused() {
        ThreadedRuntime runtime = new ThreadedRuntime(demo(5, 0, 2), BarrierHandlers.aligned(), RunOptions.builder().build());
        IllegalStateException e = assertThrows(IllegalStateException.class, runtime::failAndRestore);
        assertEquals("failAndRestore needs a running run()", e.getMessage());
    }
}
