package dev.consistentcut.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.checkpoint.CheckpointSummary;
import dev.consistentcut.check.Violation;
import dev.consistentcut.task.RunEvent;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * 2,000 seeded simulation runs over every topology, aligned and unaligned, with failures, aborts
 * and concurrent aligned checkpoints: every completed checkpoint and every final state checked.
 * Moved out of {@link SimulationRuntimeTest} unchanged, so that the runtime's mutation testing can
 * leave this class out (12 s on 2 idle cores, and every mutant of the simulation's step loop would
 * run it; docs/mutation-testing.md): a mutant only these runs kill is a gap in the unit tests.
 */
class SeededSimulationRunsTest {

    static final int RUNS = 2000;

    static BarrierMode modeOf(long seed) {
        return (seed / 4) % 2 == 0 ? BarrierHandlers.aligned() : BarrierHandlers.unaligned();
    }

    @Test
    void twoThousandSeededRunsWithFailuresKeepEveryInvariant() {
        AtomicInteger restoredCheckpoints = new AtomicInteger();
        long checkpoints = 0;
        long failures = 0;
        long persistedRecords = 0;
        Map<String, Integer> runsPerTopology = new HashMap<>();
        LifecycleBranches branches = new LifecycleBranches();
        for (long seed = 0; seed < RUNS; seed++) {
            Topologies.Topology topology = Topologies.ALL.get((int) (seed % Topologies.ALL.size()));
            BarrierMode mode = modeOf(seed);
            RunOptions options = SimulationRuntimeTest.withFailures(seed)
                    .observer(branches.seed(e -> {
                        if (e instanceof RunEvent.FailAndRestore f && f.restored() > 0) {
                            restoredCheckpoints.incrementAndGet();
                        }
                    }))
                    .build();
            RunResult r = new SimulationRuntime(topology.build().apply(seed), mode, options).run();
            if (!r.holds()) {
                fail("seed " + seed + ", " + topology + ", " + mode.name() + ": " + r.violations().stream()
                        .limit(5).map(Violation::message).toList());
            }
            checkpoints += r.checkpoints().size();
            failures += r.failures();
            persistedRecords += r.checkpoints().stream().mapToLong(CheckpointSummary::persistedRecordCount).sum();
            runsPerTopology.merge(topology.name() + "/" + mode.name(), 1, Integer::sum);
        }
        System.out.printf("%d seeded runs: %d checkpoints completed and checked, %d failures injected"
                        + " (%d restored a checkpoint), %d in-flight records persisted%n",
                RUNS, checkpoints, failures, restoredCheckpoints.get(), persistedRecords);
        // The runs must actually exercise what they claim to: checkpoints, failures, restores from
        // a checkpoint (not only from the initial state), and persisted channel state.
        assertEquals(8, runsPerTopology.size(), runsPerTopology.toString());
        branches.assertEachReached("seeded runs", LifecycleBranches.ABORTS_AND_FAILURES,
                LifecycleBranches.SUBSUMED_AT_THE_COORDINATOR);
        assertTrue(checkpoints > 3 * RUNS, "checkpoints completed: " + checkpoints);
        assertTrue(failures > RUNS / 2, "failures injected: " + failures);
        assertTrue(restoredCheckpoints.get() > RUNS / 4, "restores from a checkpoint: " + restoredCheckpoints);
        assertTrue(persistedRecords > RUNS, "in-flight records persisted: " + persistedRecords);
    }
}
