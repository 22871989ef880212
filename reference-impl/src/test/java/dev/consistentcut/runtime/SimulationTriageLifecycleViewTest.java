package dev.consistentcut.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.check.LifecycleChecks;
import dev.consistentcut.check.Violation;
import dev.consistentcut.checkpoint.CheckpointStatus;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.Partitioning;
import dev.consistentcut.operator.MapOperator;
import dev.consistentcut.source.InMemorySourceLog;
import dev.consistentcut.task.Action;
import dev.consistentcut.task.Step;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The simulation's step-by-step lifecycle checks ({@link LifecycleChecks}) as the simulation
 * wires them, shown with a broken coordinator's answers through the test seam
 * {@code SimulationRuntime(job, mode, options, lifecycleView)}: the real coordinator only makes
 * legal status moves, so without the seam nothing shows whether the simulation tells the checks
 * of its triggers and checks after task steps. The checks' view forgets checkpoint 1 (PENDING ->
 * NONE, which {@code CheckpointStatusProp} forbids) while the run goes on with the real coordinator.
 */
@Timeout(20)
class SimulationTriageLifecycleViewTest {

    /**
     * Checkpoint 1 triggered (the checks track it as PENDING), then forgotten by the checks' view;
     * the next step, a task's (s1 injects 1's barrier), is checked at once and reports it.
     */
    @Test
    void aTriggeredCheckpointThatIsForgottenIsCaughtAtTheNextTaskStep() {
        AtomicBoolean forgotten = new AtomicBoolean();
        JobGraph job = JobGraph.builder().defaultCapacity(1)
                .source("s1", InMemorySourceLog.ofKeys(0)).source("s2", InMemorySourceLog.ofKeys(0))
                .operator("join", 1, () -> new MapOperator(v -> v))
                .edge("s1", "join", Partitioning.BROADCAST).edge("s2", "join", Partitioning.BROADCAST)
                .build();
        SimulationRuntime rt = new SimulationRuntime(job, BarrierHandlers.aligned(),
                RunOptions.builder().triggerProbability(0).build(), real -> new LifecycleChecks.Coordinator() {
                    @Override
                    public CheckpointStatus status(long id) {
                        return forgotten.get() && id == 1 ? CheckpointStatus.NONE : real.status(id); // THE BUG
                    }

                    @Override
                    public Optional<CompletedCheckpoint> latestCompleted() {
                        return real.latestCompleted();
                    }
                });
        rt.takeStep(new Step(Action.TRIGGER_CHECKPOINT, null, -1, 0));
        assertEquals(List.of(), violations(rt));
        forgotten.set(true);
        rt.takeStep(new Step(Action.INJECT_BARRIER, "s1#0", -1, 1));
        assertEquals(List.of("CheckpointStatusProp violated: checkpoint 1 went from PENDING to NONE;"
                + " a status only moves NONE -> PENDING -> COMPLETED or ABORTED"), violations(rt));
    }

    private static List<String> violations(SimulationRuntime rt) {
        return rt.result().violations().stream().filter(v -> !v.invariant().equals(SimulationRuntime.TERMINATION))
                .map(Violation::message).toList();
    }
}
