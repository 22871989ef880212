package dev.consistentcut.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.causal.VectorClocks;
import dev.consistentcut.checkpoint.Acknowledgement;
import dev.consistentcut.checkpoint.TaskSnapshot;
import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.Partitioning;
import dev.consistentcut.operator.RecordingSink;
import dev.consistentcut.source.InMemorySourceLog;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An acknowledgement a task sends between its steps (after its write of the checkpoint,
 * {@code OperatorTask#acknowledgeWritten}) reaches the coordinator's clock as of the task's last
 * event, not numbered as its next event, as an acknowledgement sent within a step is. Otherwise a
 * sink whose next event takes the news of the completion that acknowledgement allowed (its
 * {@code NotifyCheckpointComplete}) would come both before and after that completion: the causal
 * merge finds no order (seen in threaded sink traces). On the test's thread only, the clocks
 * bound to one process after another; the runtime's threads never start.
 */
@Timeout(30)
class AcknowledgeBetweenStepsClockTest {

    @Test
    void theCompletionAfterAnAcknowledgementBetweenStepsPrecedesTheTasksNextEvent() {
        ThreadedRuntime runtime = new ThreadedRuntime(JobGraph.builder().defaultCapacity(16)
                .source("s", InMemorySourceLog.ofKeys(1, 2))
                .operator("sink", 1, RecordingSink::new)
                .edge("s", "sink", Partitioning.FORWARD)
                .build(), BarrierHandlers.aligned(), RunOptions.builder().build());
        CheckpointDriver driver = runtime.driver();
        VectorClocks clocks = new VectorClocks(List.of("s#0", "sink#0", VectorClocks.COORDINATOR));
        driver.gateway.recordCausally(coordinatorOnly(clocks));
        assertEquals(1L, driver.trigger().getAsLong());

        clocks.bind("sink#0");
        clocks.current().event("ReceiveBarrier(sink#0, 1): the snapshot; its write handed over");
        driver.gateway.acknowledgeBetweenSteps(Acknowledgement.ofOperator("sink#0", 1,
                new TaskSnapshot(new byte[0], Map.of()), Map.of(), Map.of(), 0, 0));

        clocks.bind(VectorClocks.COORDINATOR);
        clocks.coordinatorStep(() -> clocks.current().event("CompleteCheckpoint(1)"));

        clocks.bind("sink#0");
        clocks.atCoordinator(false, news -> true, () -> null); // the news of the completion
        clocks.current().event("NotifyCheckpointComplete(sink#0, 1)");

        List<String> merged = clocks.merge(n -> 0).stream().map(VectorClocks.Merged::line).toList();
        assertEquals(List.of("ReceiveBarrier(sink#0, 1): the snapshot; its write handed over", "CompleteCheckpoint(1)",
                "NotifyCheckpointComplete(sink#0, 1)"), merged);
    }

    /** The clocks at the coordinator only: no channel is used. */
    private static CausalWiring coordinatorOnly(VectorClocks clocks) {
        return new CausalWiring() {
            @Override
            public void bind(String process) {
                clocks.bind(process);
            }

            @Override
            public <T> T atCoordinator(boolean writes, boolean eventInside, Predicate<T> isNews, Supplier<T> call) {
                return clocks.atCoordinator(writes, eventInside, isNews, call);
            }

            @Override
            public void coordinatorStep(Runnable step, StepOrdering otherwise) {
                clocks.coordinatorStep(step);
            }

            @Override
            public void joinAll() {
                clocks.joinAll();
            }

            @Override
            public void inheritAll() {
                clocks.inheritAll();
            }

            @Override
            public StepOrdering stepLock(String task, StepOrdering otherwise) {
                return otherwise;
            }
        };
    }
}
