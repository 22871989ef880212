package dev.consistentcut.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.Partitioning;
import dev.consistentcut.operator.RecordingSink;
import dev.consistentcut.source.InMemorySourceLog;
import dev.consistentcut.task.OperatorTask;
import dev.consistentcut.task.Step;
import dev.consistentcut.task.Task;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A checkpoint's last acknowledgement gives no task news, so it must not send the tasks back to
 * the coordinator: the coordinator holds its lock while the store writes a checkpoint it
 * completes, and a source asking then waits for the write (what made checkpoints cost the
 * benchmark's throughput). The threaded runtime's gateway is driven on this thread alone, which
 * stands for the task threads (it may keep "nothing for you" answers); the runtime's threads
 * never start, and its questions to the coordinator are counted where they cross to it. No
 * latch, no timing: every step is taken by the test (only a task's write of its checkpoint runs
 * on the runtime's writer thread, and the test waits for it as the task's worker would).
 */
@Timeout(60)
class AcknowledgementNewsTest {

    /** Counts the gateway's reads of the coordinator's state (its questions); otherwise no causal trace. */
    private static final class CountedQuestions implements CausalWiring {
        int questions;

        @Override
        public <T> T atCoordinator(boolean writes, boolean eventInside, Predicate<T> isNews, Supplier<T> call) {
            if (!writes) {
                questions++;
            }
            return NONE.atCoordinator(writes, eventInside, isNews, call);
        }

        @Override
        public void bind(String process) {
            NONE.bind(process);
        }

        @Override
        public void coordinatorStep(Runnable step, StepOrdering otherwise) {
            NONE.coordinatorStep(step, otherwise);
        }

        @Override
        public void joinAll() {
            NONE.joinAll();
        }

        @Override
        public void inheritAll() {
            NONE.inheritAll();
        }

        @Override
        public StepOrdering stepLock(String task, StepOrdering otherwise) {
            return NONE.stepLock(task, otherwise);
        }
    }

    /**
     * Performs {@code task}'s enabled steps, rotating over them, until {@code done}; an operator
     * task first sends the acknowledgements of its written checkpoints, as its worker does before
     * each step, and while its writer thread still writes one (a write waits on nothing of the
     * test's), it takes no step.
     */
    private static void step(Task task, BooleanSupplier done, String what) {
        List<Step> steps = new ArrayList<>();
        for (int round = 0; round < 1_000 && !done.getAsBoolean(); ) {
            if (task instanceof OperatorTask o) {
                o.acknowledgeWritten();
                if (o.pendingWrites() > 0) {
                    Thread.yield();
                    continue;
                }
            }
            steps.clear();
            task.enabledSteps(steps);
            assertTrue(!steps.isEmpty() || done.getAsBoolean(), task + " has no step left before: " + what);
            if (!steps.isEmpty()) {
                task.perform(steps.get(round % steps.size()));
            }
            round++;
        }
        assertTrue(done.getAsBoolean(), what);
    }

    @Test
    void aCheckpointsLastAcknowledgementSendsNoSourceBackToTheCoordinator() {
        ThreadedRuntime runtime = new ThreadedRuntime(JobGraph.builder().defaultCapacity(16)
                .source("s", InMemorySourceLog.randomKeys(50, 3, 5))
                .operator("sink", 1, RecordingSink::new)
                .edge("s", "sink", Partitioning.FORWARD)
                .build(), BarrierHandlers.aligned(), RunOptions.builder().maxConcurrentAligned(1).build());
        CheckpointDriver driver = runtime.driver();
        DriverGateway gateway = driver.gateway;
        CountedQuestions counted = new CountedQuestions();
        gateway.recordCausally(counted);
        Task source = driver.deployment.tasks.get("s#0");
        Task sink = driver.deployment.tasks.get("sink#0");
        runtime.onTaskThread.set(true);
        try {
            assertEquals(1L, driver.trigger().getAsLong());
            step(source, () -> driver.coordinator.nextBarrierFor("s#0").isEmpty(), "the source injects barrier 1");
            assertTrue(gateway.nextBarrierFor("s#0").isEmpty(), "no barrier after 1");
            int kept = counted.questions;
            assertTrue(gateway.nextBarrierFor("s#0").isEmpty());
            assertEquals(kept, counted.questions, "the source's \"nothing\" is kept while nothing changed");

            step(sink, () -> driver.completable().contains(1L), "the sink acknowledges checkpoint 1, last");
            int afterAcknowledgement = counted.questions;
            assertTrue(gateway.nextBarrierFor("s#0").isEmpty());
            assertEquals(afterAcknowledgement, counted.questions,
                    "the sink's acknowledgement sent the source back to the coordinator");

            // What does move the generation makes the source ask again, and it learns of barrier 2.
            assertTrue(driver.complete(1).isPresent());
            assertEquals(2L, driver.trigger().getAsLong());
            assertEquals(2L, gateway.nextBarrierFor("s#0").getAsLong());
            assertEquals(afterAcknowledgement + 1, counted.questions, "the trigger of 2 sent the source to the coordinator");
        } finally {
            runtime.onTaskThread.remove();
        }
    }
}
