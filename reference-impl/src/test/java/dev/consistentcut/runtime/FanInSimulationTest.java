package dev.consistentcut.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.check.Violation;
import dev.consistentcut.task.RunEvent;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Seeded simulation runs of the {@code fanin} job (a task with three inputs whose output goes to
 * three channels, see {@link Topologies#fanin}), both modes, with failures, and every invariant checked
 * on every completed checkpoint. The runs must include failures that strike in the middle of a
 * checkpoint (barriers on the way, not yet completed or aborted): counted, and required.
 */
class FanInSimulationTest {

    static final int RUNS = 400;

    /** Counts, as an observer of the run, the failures while a started checkpoint is undecided. */
    static final class MidCheckpointFailureCounter {
        final Set<Long> started = new HashSet<>();
        final Set<Long> decided = new HashSet<>();
        int count;

        void on(RunEvent event) {
            if (event instanceof RunEvent.InjectBarrier e) {
                started.add(e.checkpoint());
            } else if (event instanceof RunEvent.ReceiveBarrier e) {
                started.add(e.checkpoint());
            } else if (event instanceof RunEvent.CompleteCheckpoint e) {
                decided.add(e.checkpoint());
            } else if (event instanceof RunEvent.AbortCheckpoint e) {
                decided.add(e.checkpoint());
            } else if (event instanceof RunEvent.FailAndRestore) {
                if (!decided.containsAll(started)) {
                    count++;
                }
                decided.addAll(started);
            }
        }
    }

    @Test
    void seededFanInRunsWithFailuresInTheMiddleOfCheckpointsKeepEveryInvariant() {
        int midCheckpointFailures = 0;
        long checkpoints = 0;
        long persisted = 0;
        Map<String, Integer> runsPerMode = new HashMap<>();
        LifecycleBranches branches = new LifecycleBranches();
        for (long seed = 0; seed < RUNS; seed++) {
            BarrierMode mode = seed % 2 == 0 ? BarrierHandlers.aligned() : BarrierHandlers.unaligned();
            MidCheckpointFailureCounter counter = new MidCheckpointFailureCounter();
            RunOptions options = SimulationRuntimeTest.withFailures(seed).observer(branches.seed(counter::on)).build();
            RunResult r = new SimulationRuntime(Topologies.fanin(8, 1 + (int) (seed % 3), seed), mode, options).run();
            if (!r.holds()) {
                fail("fanin seed " + seed + ", " + mode.name() + ": "
                        + r.violations().stream().limit(5).map(Violation::message).toList());
            }
            midCheckpointFailures += counter.count;
            checkpoints += r.checkpoints().size();
            persisted += r.checkpoints().stream().mapToLong(c -> c.persistedRecordCount()).sum();
            runsPerMode.merge(mode.name(), 1, Integer::sum);
        }
        System.out.printf("%d seeded fanin runs: %d checkpoints completed and checked, %d failures in the middle"
                + " of a checkpoint, %d in-flight records persisted%n", RUNS, checkpoints, midCheckpointFailures, persisted);
        assertEquals(Map.of("aligned", RUNS / 2, "unaligned", RUNS / 2), runsPerMode);
        branches.assertEachReached("fan-in runs", LifecycleBranches.ABORTS_AND_FAILURES);
        assertTrue(midCheckpointFailures > RUNS / 10, "failures in the middle of a checkpoint: " + midCheckpointFailures);
        assertTrue(checkpoints > RUNS, "checkpoints completed: " + checkpoints);
        assertTrue(persisted > 0, "no in-flight record persisted: the unaligned runs persisted nothing");
    }
}
