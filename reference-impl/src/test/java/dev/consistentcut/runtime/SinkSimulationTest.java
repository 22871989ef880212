package dev.consistentcut.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.Partitioning;
import dev.consistentcut.check.CutInvariants;
import dev.consistentcut.check.Violation;
import dev.consistentcut.operator.KeyedCount;
import dev.consistentcut.sink.MemorySinkDirectory;
import dev.consistentcut.sink.SinkDirectory;
import dev.consistentcut.sink.SinkFiles;
import dev.consistentcut.sink.TransactionalFileSink;
import dev.consistentcut.source.InMemorySourceLog;
import dev.consistentcut.task.RunEvent;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Seeded simulation runs of jobs that end in the two-phase-commit sink, with failures,
 * aborts, and failures injected between a checkpoint's completion and its notification: the
 * committed output holds every record exactly once ({@code OutputExactlyOnceInv}) and never a
 * duplicate ({@code NoDuplicateOutputInv}, checked after every commit), in both modes, with and
 * without end of input.
 */
class SinkSimulationTest {

    static final int RUNS = 400;

    /** Two sources into a keyed count (parallelism 2) into {@code sinks} instances of the sink. */
    static JobGraph job(long seed, SinkDirectory dir, int sinks, Function<SinkDirectory, TransactionalFileSink> sink) {
        SplittableRandom r = new SplittableRandom(seed);
        return JobGraph.builder()
                .defaultCapacity(1 + r.nextInt(3))
                .source("s1", InMemorySourceLog.randomKeys(10 + r.nextInt(21), 6, r.nextLong()))
                .source("s2", InMemorySourceLog.randomKeys(10 + r.nextInt(21), 6, r.nextLong()))
                .operator("count", 2, KeyedCount::new)
                .operator("sink", sinks, () -> sink.apply(dir))
                .edge("s1", "count", Partitioning.HASH)
                .edge("s2", "count", Partitioning.HASH)
                .edge("count", "sink", Partitioning.HASH)
                .build();
    }

    static RunOptions.Builder options(long seed) {
        return SimulationRuntimeTest.withFailures(seed)
                .maxFailures(3)
                .failureAfterCompletionProbability(0.3)
                .endOfInput(seed % 3 != 0);
    }

    static BarrierMode mode(long seed) {
        return seed % 2 == 0 ? BarrierHandlers.aligned() : BarrierHandlers.unaligned();
    }

    @Test
    void seededRunsWithLostNotificationsCommitEveryRecordExactlyOnce() {
        int lost = 0;
        long recommits = 0;
        long failures = 0;
        AtomicInteger recommitEvents = new AtomicInteger();
        LifecycleBranches branches = new LifecycleBranches();
        for (long seed = 0; seed < RUNS; seed++) {
            MemorySinkDirectory dir = new MemorySinkDirectory();
            RunOptions o = options(seed).observer(branches.seed(e -> {
                if (e instanceof RunEvent.FailAndRestore f
                        && f.recommitted().values().stream().anyMatch(v -> !v.isEmpty())) {
                    recommitEvents.incrementAndGet();
                }
            })).build();
            SimulationRuntime sim = new SimulationRuntime(job(seed, dir, 1 + (int) (seed % 4 == 3 ? 1 : 0),
                    TransactionalFileSink::new), mode(seed), o);
            RunResult r = sim.run();
            if (!r.holds()) {
                fail("seed " + seed + ", " + mode(seed).name() + ": " + r.violations().stream().limit(5)
                        .map(Violation::message).toList());
            }
            assertTrue(dir.list().stream().noneMatch(SinkFiles::isTemp), "seed " + seed + ": leftover temp files " + dir.list());
            lost += sim.lostNotifications();
            failures += r.failures();
        }
        System.out.printf("%d sink runs: %d failures, %d notifications lost, %d restores re-committed%n",
                RUNS, failures, lost, recommitEvents.get());
        assertTrue(lost > RUNS / 4, "notifications lost to a failure: " + lost);
        assertTrue(recommitEvents.get() > RUNS / 10, "restores that re-committed: " + recommitEvents.get());
        branches.assertEachReached("sink runs", LifecycleBranches.ABORTS_AND_FAILURES,
                LifecycleBranches.NOTIFICATION_LOST, LifecycleBranches.RESTORE_WITH_PENDING_TRANSACTIONS,
                LifecycleBranches.END_OF_INPUT);
    }

    @Test
    void aFailureAfterTheNthCheckpointLosesItsNotificationAndTheRestoreRecommits() {
        for (BarrierMode mode : List.of(BarrierHandlers.aligned(), BarrierHandlers.unaligned())) {
            MemorySinkDirectory dir = new MemorySinkDirectory();
            AtomicInteger recommitted = new AtomicInteger();
            RunOptions o = RunOptions.builder().seed(3).triggerProbability(0.2).failAfterCheckpoint(2).endOfInput(true)
                    .observer(e -> {
                        if (e instanceof RunEvent.FailAndRestore f) {
                            recommitted.addAndGet(f.recommitted().values().stream().mapToInt(List::size).sum());
                        }
                    }).build();
            SimulationRuntime sim = new SimulationRuntime(job(11, dir, 1, TransactionalFileSink::new), mode, o);
            RunResult r = sim.run();
            assertTrue(r.holds(), r.violations().toString());
            assertEquals(1, r.failures());
            assertEquals(1, sim.lostNotifications(), mode.name());
            assertTrue(recommitted.get() >= 1, mode.name() + ": the restore re-committed " + recommitted);
        }
    }

    @Test
    void theRunEndsOnlyAfterTheFinalCheckpointCommittedTheLastTransaction() {
        MemorySinkDirectory dir = new MemorySinkDirectory();
        List<String> events = new java.util.ArrayList<>();
        RunOptions o = RunOptions.builder().seed(4).triggerProbability(0).endOfInput(true)
                .observer(e -> events.add(e.name())).build();
        RunResult r = new SimulationRuntime(job(5, dir, 1, TransactionalFileSink::new), BarrierHandlers.aligned(), o).run();
        assertTrue(r.holds(), r.violations().toString());
        // No checkpoint before the input ended: the final checkpoint alone commits everything.
        assertEquals(1, r.checkpoints().size());
        assertEquals("NotifyCheckpointComplete", events.get(events.size() - 1));
        assertEquals(1, dir.list().stream().filter(SinkFiles::isPart).count(), dir.list().toString());
    }

    @Test
    void committedOutputIsCheckedAgainstTheInput() {
        MemorySinkDirectory dir = new MemorySinkDirectory();
        SimulationRuntime sim = new SimulationRuntime(job(6, dir, 1, TransactionalFileSink::new), BarrierHandlers.aligned(),
                RunOptions.builder().seed(6).endOfInput(true).build());
        assertTrue(sim.run().holds());
        CutInvariants inv = new CutInvariants(sim.graph());
        var output = new java.util.HashMap<>(sim.operatorTask("sink#0").committedOutput());
        assertTrue(inv.outputExactlyOnce(java.util.Map.of("sink#0", output)).isEmpty());
        var first = output.keySet().iterator().next();
        output.merge(first, 1, Integer::sum);
        List<Violation> dup = inv.noDuplicateOutput(java.util.Map.of("sink#0", output));
        assertEquals(1, dup.size());
        assertEquals(CutInvariants.NO_DUPLICATE_OUTPUT, dup.get(0).invariant());
        assertTrue(dup.get(0).message().contains("duplicated"), dup.get(0).message());
        output.remove(first);
        List<Violation> missing = inv.outputExactlyOnce(java.util.Map.of("sink#0", output));
        assertEquals(1, missing.size());
        assertTrue(missing.get(0).message().contains("missing"), missing.get(0).message());
        assertFalse(inv.noDuplicateOutput(java.util.Map.of("sink#0", output)).size() > 0);
    }
}
