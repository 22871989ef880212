package dev.consistentcut.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.barrier.BrokenHandlers;
import dev.consistentcut.check.CompletionChecks;
import dev.consistentcut.check.CutInvariants;
import dev.consistentcut.check.Violation;
import dev.consistentcut.checkpoint.CheckpointCoordinator;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.checkpoint.InMemoryCheckpointStore;
import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.PhysicalGraph;
import dev.consistentcut.task.RunEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The completion checks hand each checkpoint's check to the executor they were given instead of
 * running it on the coordinator's thread, and the checks run later, in order, find what checking
 * each checkpoint at its completion finds: the same violations, in the same order, including those
 * after a violating checkpoint (the check from the last one that held restarts). Over checkpoints
 * of a seeded simulation run of a broken engine that does violate the cut.
 */
@Timeout(60)
class CompletionChecksHandOverTest {

    @Test
    void checksHandedOverFindWhatChecksAtCompletionFind() {
        BarrierMode mode = BrokenHandlers.alignedWithoutBlocking();
        int violatingRuns = 0;
        for (long seed = 0; seed < 40; seed++) {
            JobGraph job = Topologies.ALL.get(0).build().apply(seed);
            SimulationRuntime run = new SimulationRuntime(job, mode,
                    RunOptions.builder().seed(seed).maxSteps(200_000).maxCheckpoints(6).triggerProbability(0.08).build());
            run.run();
            List<CompletedCheckpoint> completed = run.completedCheckpoints();

            List<Violation> atCompletion = new ArrayList<>();
            CompletionChecks inline = checks(job, mode, atCompletion, Runnable::run);
            List<Violation> later = new ArrayList<>();
            List<Runnable> handedOver = new ArrayList<>();
            CompletionChecks deferred = checks(job, mode, later, handedOver::add);
            for (CompletedCheckpoint c : completed) {
                inline.on(new RunEvent.CompleteCheckpoint(c));
                deferred.on(new RunEvent.CompleteCheckpoint(c));
            }
            assertEquals(completed.size(), handedOver.size(), "seed " + seed + ": one check per completion");
            assertTrue(later.isEmpty(), "seed " + seed + ": a check ran on the coordinator's thread");
            handedOver.forEach(Runnable::run);
            assertEquals(atCompletion, later, "seed " + seed);
            violatingRuns += atCompletion.isEmpty() ? 0 : 1;
        }
        assertTrue(violatingRuns > 0, "the broken engine never violated the cut: the comparison shows nothing");
    }

    private static CompletionChecks checks(JobGraph job, BarrierMode mode, List<Violation> sink,
                                           java.util.concurrent.Executor checker) {
        PhysicalGraph graph = PhysicalGraph.of(job);
        CheckpointCoordinator coordinator = CheckpointCoordinator.forAligned(Set.of("any"), Set.of(), 1,
                new InMemoryCheckpointStore(1), () -> 0);
        return new CompletionChecks(new CutInvariants(graph), coordinator, mode, true, sink, checker);
    }
}
