package dev.consistentcut.stress.lincheck;

import dev.consistentcut.runtime.Quiescence;
import dev.consistentcut.stress.broken.BrokenQuiescenceOneLook;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.lincheck.datastructures.Operation;
import org.junit.jupiter.api.Test;

/**
 * The threaded runtime ends a run only when nothing is left to do: its end check
 * ({@link Quiescence#reached}, the step counts read around a quiet inspection) never declares the
 * end while a step that took a channel's last element has not put its result yet. Three threads,
 * one operation each, on a pipeline of one record: an operator task's round (its step takes from
 * {@code in} and puts to {@code mid}), a sink task's round (its step takes from {@code mid}), and
 * one look of the coordinator thread, with "every channel empty" as its quiet inspection; a look
 * that declares the end stops the tasks before their next step. Each step counts itself as a
 * worker's does ({@link Quiescence.Steps#begin()} once chosen, {@link Quiescence.Steps#end(int)}
 * after it). A look may always find the run still going (the coordinator looks again); what must
 * hold in every interleaving is that a run declared ended has left no record in a channel.
 *
 * <p>Bound: the model checker tries up to {@link ModelChecked#invocations()} interleavings of that scenario
 * (1,000 quick, 10,000 long; a switch point at every read and write of a count, a channel or the
 * stop). The broken twin is the check without its second look at the started counts.
 */
class EndOfRunStepCountsTest {

    /** An end check: {@link Quiescence#reached} or a broken twin of it. */
    interface EndCheck {
        boolean reached(List<Quiescence.Steps> threads, BooleanSupplier quiet);
    }

    /** A one-element channel, its operations atomic as the engine's channel's are under its lock. */
    static final class Slot {
        private boolean full;

        Slot(boolean full) {
            this.full = full;
        }

        synchronized boolean isEmpty() {
            return !full;
        }

        synchronized void take() {
            full = false;
        }

        synchronized void put() {
            full = true;
        }
    }

    abstract static class Pipeline {
        private final Quiescence.Steps operator = new Quiescence.Steps();
        private final Quiescence.Steps sink = new Quiescence.Steps();
        private final Slot in = new Slot(true);
        private final Slot mid = new Slot(false);
        private final EndCheck check;
        /** Set by the end check: the task threads leave before their next step, as at {@code Wakeup.stop()}. */
        private volatile boolean stopped;

        Pipeline(EndCheck check) {
            this.check = check;
        }

        /** The operator task's round: its step is enabled while {@code in} has the record. */
        @Operation
        public void forward() {
            if (stopped || in.isEmpty()) {
                return;
            }
            operator.begin();
            in.take();
            mid.put();
            operator.end(1);
        }

        /** The sink task's round: its step is enabled while {@code mid} has the record. */
        @Operation
        public void take() {
            if (stopped || mid.isEmpty()) {
                return;
            }
            sink.begin();
            mid.take();
            sink.end(1);
        }

        /** One look of the coordinator thread; at the end it stops the task threads. */
        @Operation
        public void endCheck() {
            if (check.reached(List.of(operator, sink), () -> in.isEmpty() && mid.isEmpty())) {
                stopped = true;
            }
        }

        /** After the threads: whether the run ended with the record still in a channel. */
        @Operation
        public boolean recordLeftBehind() {
            return stopped && !(in.isEmpty() && mid.isEmpty());
        }
    }

    public static class Engine extends Pipeline {
        public Engine() {
            super(Quiescence::reached);
        }
    }

    public static class OneLook extends Pipeline {
        public OneLook() {
            super(BrokenQuiescenceOneLook::reached);
        }
    }

    /**
     * What must hold in any order: a look may always find the run still going (the coordinator
     * looks again later), but a run it ended has left no record behind.
     */
    public static class NothingLeftBehind {
        public void forward() {
        }

        public void take() {
        }

        public void endCheck() {
        }

        public boolean recordLeftBehind() {
            return false;
        }
    }

    private static ExecutionScenario stepsVersusEndCheck(Class<?> ops) {
        return Scenarios.of(ops).thread("forward").thread("take").thread("endCheck").post("recordLeftBehind").build();
    }

    @Test
    void theEndIsNeverDeclaredWhileAStepHoldsTheLastRecord() {
        ModelChecked.holds(NothingLeftBehind.class, Engine.class, EndOfRunStepCountsTest::stepsVersusEndCheck);
    }

    @Test
    void modelCheckingFindsTheEndDeclaredWithoutTheSecondLook() {
        ModelChecked.caught("end check without its second look at the step counts", NothingLeftBehind.class,
                OneLook.class, EndOfRunStepCountsTest::stepsVersusEndCheck);
    }
}
