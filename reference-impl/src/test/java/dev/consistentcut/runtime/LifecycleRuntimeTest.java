package dev.consistentcut.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.graph.PhysicalGraph;
import dev.consistentcut.check.CutInvariants;
import dev.consistentcut.check.Violation;
import dev.consistentcut.task.RunEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Both runtimes with the checkpoint lifecycle of Aborts that reach the tasks, declines,
 * subsumption, concurrent aligned checkpoints, and jobs that run to the end of their input.
 */
@Timeout(120)
class LifecycleRuntimeTest {

    private static final List<BarrierMode> MODES =
            List.of(BarrierHandlers.aligned(), BarrierHandlers.unaligned(), BarrierHandlers.atLeastOnce());

    @Test
    void sixHundredSeededRunsToTheEndOfInputWithAbortsAndFailuresKeepTheirModesInvariants() {
        int ended = 0;
        AtomicInteger aborts = new AtomicInteger();
        AtomicInteger notifications = new AtomicInteger();
        AtomicInteger cancellations = new AtomicInteger();
        LifecycleBranches branches = new LifecycleBranches();
        for (long seed = 0; seed < 600; seed++) {
            Topologies.Topology topology = Topologies.ALL.get((int) (seed % Topologies.ALL.size()));
            BarrierMode mode = MODES.get((int) ((seed / 4) % 3));
            RunOptions options = SimulationRuntimeTest.withFailures(seed)
                    .abortProbability(0.02)
                    .endOfInput(true)
                    .observer(branches.seed(e -> {
                        switch (e.name()) {
                            case "AbortCheckpoint" -> aborts.incrementAndGet();
                            case "NotifyCheckpointAborted" -> notifications.incrementAndGet();
                            case "ReceiveCancelBarrier" -> cancellations.incrementAndGet();
                            default -> { }
                        }
                    }))
                    .build();
            SimulationRuntime sim = new SimulationRuntime(topology.build().apply(seed), mode, options);
            RunResult r = sim.run();
            if (!r.holds() || !r.finished()) {
                fail("seed " + seed + ", " + topology + ", " + mode.name() + ": " + r.violations().stream()
                        .limit(5).map(Violation::message).toList());
            }
            ended++;
        }
        System.out.printf("%d runs to the end of input: %d aborts, %d notifications, %d cancellation barriers taken%n",
                ended, aborts.get(), notifications.get(), cancellations.get());
        assertTrue(aborts.get() > 0 && notifications.get() > 0 && cancellations.get() > 0,
                "the runs exercised aborts, notifications and cancellation barriers");
        branches.assertEachReached("runs to the end of input", LifecycleBranches.ABORTS_AND_FAILURES,
                LifecycleBranches.SUBSUMED_AT_THE_COORDINATOR, LifecycleBranches.END_OF_INPUT);
    }

    @Test
    void atLeastOnceSnapshotsDoCountRecordsTwiceSoNoDoubleCountInvDoesNotHoldThere() {
        // What makes the mode at-least-once: a snapshot taken on the last barrier counts the
        // records that followed an earlier barrier. Some seeded run must show it.
        for (long seed = 0; seed < 400; seed++) {
            Topologies.Topology topology = Topologies.MULTI_INPUT.get((int) (seed % Topologies.MULTI_INPUT.size()));
            var job = topology.build().apply(seed);
            CutInvariants invariants = new CutInvariants(PhysicalGraph.of(job));
            List<Violation> doubles = new ArrayList<>();
            RunResult r = new SimulationRuntime(job, BarrierHandlers.atLeastOnce(), SimulationRuntimeTest.withFailures(seed)
                    .onCheckpoint(c -> doubles.addAll(invariants.noDoubleCount(c))).build()).run();
            assertTrue(r.holds(), r.violations().toString());
            if (!doubles.isEmpty()) {
                assertEquals(CutInvariants.NO_DOUBLE_COUNT, doubles.get(0).invariant());
                return;
            }
        }
        fail("no at-least-once checkpoint counted a record twice in 400 runs");
    }

    @Test
    void seededDeclinesAbortTheirCheckpointsAndLaterOnesStillComplete() {
        // DeclineCheckpoint of the correct engine: a task that cannot take part in a checkpoint
        // declines it when its first barrier arrives (RunOptions.declineProbability); the
        // coordinator aborts it, every task learns of it, and the job goes on to complete later
        // checkpoints with every invariant of its mode holding. (Flink: a failing checkpoint on a
        // task declines it, CheckpointCoordinator#receiveDeclineMessage aborts the pending one.)
        AtomicInteger declines = new AtomicInteger();
        int completed = 0;
        LifecycleBranches branches = new LifecycleBranches();
        for (long seed = 0; seed < 90; seed++) {
            Topologies.Topology topology = Topologies.MULTI_INPUT.get((int) (seed % Topologies.MULTI_INPUT.size()));
            BarrierMode mode = MODES.get((int) (seed % 3));
            RunOptions options = SimulationRuntimeTest.withFailures(seed)
                    .declineProbability(0.2)
                    .maxConcurrentAligned(mode.oneInFlight() ? 1 : 2)
                    .endOfInput(true)
                    .observer(branches.seed(e -> {
                        if (e instanceof RunEvent.AbortCheckpoint a && a.declinedBy() != null) {
                            declines.incrementAndGet();
                        }
                    }))
                    .build();
            RunResult r = new SimulationRuntime(topology.build().apply(seed), mode, options).run();
            if (!r.holds() || !r.finished()) {
                fail("seed " + seed + ", " + topology + ", " + mode.name() + ": " + r.violations().stream()
                        .limit(5).map(Violation::message).toList());
            }
            completed += r.checkpoints().size();
        }
        assertTrue(declines.get() > 0, "some task declined a pending checkpoint");
        assertTrue(completed > 0, "checkpoints still completed");
        branches.assertEachReached("runs with declines", LifecycleBranches.DECLINED, LifecycleBranches.COMPLETED,
                LifecycleBranches.SUBSUMED_AT_A_TASK, LifecycleBranches.END_OF_INPUT);
    }

    @ParameterizedTest
    @ValueSource(strings = {"aligned", "unaligned", "at-least-once"})
    void threadedRunsToTheEndOfInputWithTimeoutsAndAFailure(String modeName) {
        RunResult r = new ThreadedRuntime(ThreadedRuntimeTest.demo(300, 5_000, 4), BarrierHandlers.byName(modeName),
                RunOptions.builder()
                        .checkpointInterval(TimeUnit.MICROSECONDS.toNanos(200))
                        .checkpointTimeout(TimeUnit.MICROSECONDS.toNanos(300))
                        .maxConcurrentAligned(2)
                        .failAfterCheckpoint(1)
                        .endOfInput(true)
                        .build()).run();
        assertTrue(r.holds(), r.violations().toString());
        assertTrue(r.finished());
    }
}
