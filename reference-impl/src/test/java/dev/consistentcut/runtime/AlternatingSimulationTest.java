package dev.consistentcut.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.barrier.BrokenHandlers;
import dev.consistentcut.check.CutInvariants;
import dev.consistentcut.check.Violation;
import dev.consistentcut.task.RunEvent;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;
import org.junit.jupiter.api.Test;

/**
 * Seeded simulation runs of alternating mode over every topology, with failures, aborts,
 * savepoints and alignment timeouts from 0 to 40 steps (one step stands for a millisecond, and
 * the timeout fires as a seeded choice once due), every completed checkpoint and the final state
 * checked; and the four broken twins of spec/alternating/MCAlternatingCheckpoint.tla, each caught by its
 * named invariant.
 */
class AlternatingSimulationTest {

    static final int RUNS = 300;

    private static RunOptions.Builder options(long seed) {
        return SimulationRuntimeTest.withFailures(seed).maxCheckpoints(8).savepointEvery(seed % 3 == 0 ? 2 : 0);
    }

    @Test
    void seededAlternatingRunsWithFailuresKeepEveryInvariant() {
        long checkpoints = 0;
        long switched = 0;
        long savepoints = 0;
        long persisted = 0;
        long failures = 0;
        int[] timeouts = new int[2]; // active, passive
        int[] late = new int[1]; // timeouts of a checkpoint the coordinator had aborted already
        int[] prioritized = new int[1]; // PrioritizeBarrier steps
        LifecycleBranches branches = new LifecycleBranches();
        for (long seed = 0; seed < RUNS; seed++) {
            Topologies.Topology topology = Topologies.ALL.get((int) (seed % Topologies.ALL.size()));
            BarrierMode mode = BarrierHandlers.alternating(seed % 41);
            SimulationRuntime[] runtime = new SimulationRuntime[1];
            RunOptions o = options(seed).observer(branches.seed(e -> {
                if (e instanceof RunEvent.TimeoutAlignment t) {
                    timeouts[t.passive() ? 1 : 0]++;
                    if (runtime[0].coordinator().status(t.checkpoint())
                            == dev.consistentcut.checkpoint.CheckpointStatus.ABORTED) {
                        late[0]++;
                    }
                } else if (e instanceof RunEvent.PrioritizeBarrier) {
                    prioritized[0]++;
                }
            })).build();
            runtime[0] = new SimulationRuntime(topology.build().apply(seed), mode, o);
            RunResult r = runtime[0].run();
            if (!r.holds()) {
                fail(topology.name() + " seed " + seed + ", timeout " + mode.alignedTimeoutMillis() + ": "
                        + r.violations().stream().limit(5).map(Violation::message).toList());
            }
            checkpoints += r.checkpoints().size();
            switched += r.switchedCheckpoints().size();
            savepoints += r.savepoints().size();
            failures += r.failures();
            persisted += r.checkpoints().stream().mapToLong(c -> c.persistedRecordCount()).sum();
            for (long sp : r.savepoints()) {
                assertTrue(!r.switchedCheckpoints().contains(sp), "savepoint " + sp + " switched (seed " + seed + ")");
            }
        }
        System.out.printf("%d seeded alternating runs: %d checkpoints checked, %d switched, %d savepoints, %d failures,"
                + " %d active and %d passive timeouts (%d of an aborted checkpoint), %d PrioritizeBarrier steps,"
                + " %d in-flight records persisted%n",
                RUNS, checkpoints, switched, savepoints, failures, timeouts[0], timeouts[1], late[0], prioritized[0], persisted);
        // A task's timer fires for a checkpoint aborted meanwhile, as the spec allows;
        // and barriers queued after a switch are prioritized.
        assertTrue(late[0] > 0, "no timeout of an aborted checkpoint");
        assertTrue(prioritized[0] > RUNS / 10, "PrioritizeBarrier steps: " + prioritized[0]);
        assertTrue(switched > RUNS / 2, "switched checkpoints: " + switched);
        assertTrue(checkpoints - switched > RUNS / 2, "checkpoints that stayed aligned: " + (checkpoints - switched));
        assertTrue(savepoints > RUNS / 10, "savepoints: " + savepoints);
        assertTrue(timeouts[0] > RUNS / 10 && timeouts[1] > RUNS / 10, "active, passive timeouts: " + timeouts[0] + ", " + timeouts[1]);
        assertTrue(failures > RUNS / 2, "failures: " + failures);
        assertTrue(persisted > 0, "no in-flight record persisted");
        branches.assertEachReached("alternating runs", LifecycleBranches.ABORTS_AND_FAILURES,
                LifecycleBranches.ACTIVE_TIMEOUT, LifecycleBranches.PASSIVE_TIMEOUT, LifecycleBranches.PRIORITIZED);
    }

    /** Runs the broken mode over the multi-input topologies until a run reports a violation. */
    private static Violation firstViolation(LongFunction<BarrierMode> broken, int savepointEvery) {
        for (long seed = 0; seed < 400; seed++) {
            Topologies.Topology topology = Topologies.MULTI_INPUT.get((int) (seed % Topologies.MULTI_INPUT.size()));
            RunOptions o = options(seed).savepointEvery(savepointEvery).build();
            RunResult r = new SimulationRuntime(topology.build().apply(seed), broken.apply(seed % 21), o).run();
            if (!r.violations().isEmpty()) {
                return r.violations().get(0);
            }
        }
        return fail(broken.apply(0).name() + " was not caught in 400 runs");
    }

    // spec: BugSwitchPersistsArrivedInputs
    @Test
    void aSwitchPersistingTheArrivedInputsIsCaughtCountingTwice() {
        Violation v = firstViolation(BrokenHandlers::alternatingPersistingArrivedInputs, 0);
        assertTrue(List.of(CutInvariants.NO_DOUBLE_COUNT, CutInvariants.UNALIGNED_CHANNEL_STATE_BOUND).contains(v.invariant()),
                v.message());
    }

    // spec: BugSwitchForgetsPendingInputs
    @Test
    void aSwitchForgettingThePendingInputsIsCaughtSkipping() {
        Violation v = firstViolation(BrokenHandlers::alternatingForgettingPendingInputs, 0);
        assertEquals(CutInvariants.NO_SKIP, v.invariant(), v.message());
        assertEquals("skipped", v.direction());
    }

    // spec: BugSwitchNotPropagated
    @Test
    void aSwitchNotPropagatedDownstreamIsCaught() {
        Violation v = firstViolation(BrokenHandlers::alternatingNotPropagated, 0);
        assertEquals(CutInvariants.SWITCH_PROPAGATES, v.invariant(), v.message());
    }

    // spec: BugForcedAlignedSwitches (FLINK-33693)
    @Test
    void aSavepointThatSwitchesIsCaught() {
        Violation v = firstViolation(BrokenHandlers::alternatingSavepointsSwitch, 1);
        assertEquals(CutInvariants.SAVEPOINT_NO_CHANNEL_STATE, v.invariant(), v.message());
    }

    @Test
    void theCorrectModeIsNotCaughtOnTheSameRuns() {
        for (long seed = 0; seed < 60; seed++) {
            Topologies.Topology topology = Topologies.MULTI_INPUT.get((int) (seed % Topologies.MULTI_INPUT.size()));
            RunResult r = new SimulationRuntime(topology.build().apply(seed), BarrierHandlers.alternating(seed % 21),
                    options(seed).savepointEvery(1 + (int) (seed % 2)).build()).run();
            assertTrue(r.holds(), topology.name() + " seed " + seed + ": " + r.violations());
        }
    }
}
