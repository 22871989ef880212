package dev.consistentcut.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.Partitioning;
import dev.consistentcut.operator.RecordingSink;
import dev.consistentcut.source.InMemorySourceLog;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The gateway's per-task questions to the coordinator, built once when the gateway is: each task
 * asks its own, a question answered "nothing" is answered again after the coordinator changes,
 * and a name that is not a task of the job is refused by name. On the test's thread only; the
 * runtime's threads never start.
 */
@Timeout(30)
class DriverGatewayQuestionsTest {

    private static ThreadedRuntime twoSources() {
        return new ThreadedRuntime(JobGraph.builder().defaultCapacity(16)
                .source("a", InMemorySourceLog.ofKeys(1, 2))
                .source("b", InMemorySourceLog.ofKeys(3))
                .operator("sink", 1, RecordingSink::new)
                .edge("a", "sink", Partitioning.FORWARD)
                .edge("b", "sink", Partitioning.FORWARD)
                .build(), BarrierHandlers.aligned(), RunOptions.builder().build());
    }

    @Test
    void eachSourceKeepsItsOwnNothingUntilTheCoordinatorChanges() {
        ThreadedRuntime runtime = twoSources();
        CheckpointDriver driver = runtime.driver();
        runtime.onTaskThread.set(true); // the test's thread asks as a task thread does: it may keep "nothing"
        try {
            assertEquals(OptionalLong.empty(), driver.gateway.nextBarrierFor("a#0"));

            // The coordinator's trigger alone, without the driver's move of the generation after it.
            long id = driver.coordinator.triggerCheckpoint().getAsLong();
            assertEquals(OptionalLong.empty(), driver.gateway.nextBarrierFor("a#0"),
                    "a's \"nothing\" is kept while the generation has not moved");
            assertEquals(OptionalLong.of(id), driver.gateway.nextBarrierFor("b#0"),
                    "b never asked: its question is its own, not a's, and goes to the coordinator");

            driver.gateway.coordinatorChanged(); // as the driver does right after a trigger
            assertEquals(OptionalLong.of(id), driver.gateway.nextBarrierFor("a#0"));
            assertEquals(OptionalLong.empty(), driver.gateway.nextAbortNotificationFor("sink#0"));
        } finally {
            runtime.onTaskThread.remove();
        }
    }

    @Test
    void aNameThatIsNoTaskOfTheJobIsRefused() {
        CheckpointDriver driver = twoSources().driver();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> driver.gateway.nextBarrierFor("c#0"));
        assertTrue(e.getMessage().contains("c#0"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> driver.gateway.nextAbortNotificationFor("c#0"));
    }
}
