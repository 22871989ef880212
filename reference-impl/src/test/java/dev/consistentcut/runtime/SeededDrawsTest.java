package dev.consistentcut.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.sink.MemorySinkDirectory;
import dev.consistentcut.sink.TransactionalFileSink;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The simulation's seeded draws: a failure after a completion only where a notification can be
 * lost (a job with a transactional sink), within the failure budget; and a draw is made only when
 * its setting is on, so that a setting which cannot take effect leaves the run as it was (the
 * promise of {@link RunOptions#seed()}: a run is reproduced exactly by job, mode and options, and
 * the runs of a seed do not move when a feature that is off is added).
 */
@Timeout(20)
class SeededDrawsTest {

    private static RunResult sinkRun(RunOptions.Builder o) {
        return new SimulationRuntime(SinkSimulationTest.job(11, new MemorySinkDirectory(), 1, TransactionalFileSink::new),
                BarrierHandlers.aligned(), o.seed(11).triggerProbability(0.1).maxCheckpoints(4).endOfInput(true).build()).run();
    }

    @Test
    void aCertainFailureAfterCompletionStrikesOnceInASinkJobWithinTheBudget() {
        for (int budget : new int[] {1, 2}) {
            MemorySinkDirectory dir = new MemorySinkDirectory();
            SimulationRuntime sim = new SimulationRuntime(SinkSimulationTest.job(11, dir, 1, TransactionalFileSink::new),
                    BarrierHandlers.aligned(), RunOptions.builder().seed(11).triggerProbability(0.1).maxCheckpoints(4)
                            .endOfInput(true).maxFailures(budget).failureAfterCompletionProbability(1).build());
            RunResult r = sim.run();
            assertTrue(r.holds(), r.violations().toString());
            assertTrue(r.checkpoints().size() > budget, "completions: " + r.checkpoints().size());
            assertEquals(budget, r.failures(), "every completion is followed by a failure until the budget is spent");
            assertEquals(budget, sim.lostNotifications(), "each of them lost the sink's notification");
        }
    }

    @Test
    void aJobWithoutATransactionalSinkHasNoNotificationToLoseAndNoSuchFailure() {
        RunResult r = new SimulationRuntime(Topologies.demo(4), BarrierHandlers.aligned(), RunOptions.builder().seed(4)
                .triggerProbability(0.1).maxCheckpoints(4).maxFailures(2).failureAfterCompletionProbability(1).build()).run();
        assertTrue(r.holds(), r.violations().toString());
        assertTrue(r.checkpoints().size() >= 2, "completions: " + r.checkpoints().size());
        assertEquals(0, r.failures());
    }

    @Test
    void aFailureAfterCompletionThatCannotHappenDrawsNothing() {
        // probability 0: the budget must not matter (no draw shifts the seeded choices)
        RunResult none = sinkRun(RunOptions.builder().maxFailures(0));
        RunResult budget = sinkRun(RunOptions.builder().maxFailures(3));
        assertTrue(none.holds() && none.checkpoints().size() >= 2, none.toString());
        // the same run, step for step (a sink's snapshot bytes name its transactions, which differ per run)
        assertEquals(shape(none), shape(budget));
    }

    /** What a seeded run chose: its length, each checkpoint's id and statistics (trigger, completion, delays), the ledgers. */
    private static List<Object> shape(RunResult r) {
        return List.of(r.steps(), r.failures(), r.checkpoints().stream().map(c -> List.of(c.id(), c.stats())).toList(),
                r.finalLedgers());
    }

    @Test
    void aFailureProbabilityOfZeroDrawsNothing() {
        RunOptions.Builder base = RunOptions.builder().seed(6).triggerProbability(0.1).maxCheckpoints(4);
        RunResult none = new SimulationRuntime(Topologies.demo(6), BarrierHandlers.unaligned(), base.maxFailures(0).build()).run();
        RunResult budget = new SimulationRuntime(Topologies.demo(6), BarrierHandlers.unaligned(), base.maxFailures(3).build()).run();
        assertTrue(none.holds() && none.checkpoints().size() >= 2, none.toString());
        assertEquals(none, budget);
    }
}
