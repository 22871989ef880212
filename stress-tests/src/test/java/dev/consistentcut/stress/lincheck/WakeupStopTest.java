package dev.consistentcut.stress.lincheck;

import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.consistentcut.runtime.Wakeup;
import dev.consistentcut.stress.StressMode;
import dev.consistentcut.stress.broken.BrokenStopFlagBesideWakeup;
import org.jetbrains.lincheck.LincheckAssertionError;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.junit.jupiter.api.Test;

/**
 * A task thread of the threaded runtime always leaves its loop once stopped, whatever the
 * interleaving: the model checker tries every order of the waiter's loop (with never a step to do,
 * as at the end of a run or at a failure) against a stop from the coordinator thread, and a waiter
 * left waiting for good is a deadlock it reports. The broken twin is the loop as it was, with the
 * stop flag beside the wake-up; it hung threaded runs (see {@link Wakeup}).
 */
class WakeupStopTest {

    /** The engine's loop ({@code dev.consistentcut.runtime.Worker.run}) with never an enabled step. */
    public static class EngineLoop {
        private final Wakeup wakeup = new Wakeup();

        @Operation
        public String waiterLoop() {
            while (wakeup.clearUnlessStopped()) {
                wakeup.await(); // no step enabled: the worker waits
            }
            return "left";
        }

        @Operation
        public String stop() {
            wakeup.stop();
            return "stopped";
        }
    }

    public static class BrokenLoop {
        private final BrokenStopFlagBesideWakeup twin = new BrokenStopFlagBesideWakeup();

        @Operation
        public String waiterLoop() {
            twin.waiterLoop();
            return "left";
        }

        @Operation
        public String stop() {
            twin.stop();
            return "stopped";
        }
    }

    /**
     * What the loop must do in any order: leave and be stopped. Sequentially the loop after the
     * stop leaves at once; the loop before it would wait, so the model says what it must return.
     */
    public static class LeavesOnceStopped {
        public String waiterLoop() {
            return "left";
        }

        public String stop() {
            return "stopped";
        }
    }

    private static ExecutionScenario waiterVersusStop(Class<?> ops) {
        return Scenarios.of(ops).thread("waiterLoop").thread("stop").build();
    }

    private static ModelCheckingOptions modelChecking() {
        return new ModelCheckingOptions()
                .iterations(0)
                .invocationsPerIteration(StressMode.pick(1_000, 10_000))
                .sequentialSpecification(LeavesOnceStopped.class);
    }

    @Test
    void theWaiterAlwaysLeavesOnceStopped() {
        modelChecking().addCustomScenario(waiterVersusStop(EngineLoop.class)).check(EngineLoop.class);
    }

    @Test
    void modelCheckingFindsTheStopLostBetweenTheLookAndTheClear() {
        LincheckAssertionError e = assertThrows(LincheckAssertionError.class, () -> modelChecking()
                .addCustomScenario(waiterVersusStop(BrokenLoop.class)).check(BrokenLoop.class));
        LincheckReport.print("loop with its stop flag beside the wake-up", e);
    }
}
