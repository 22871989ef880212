package dev.consistentcut.stress.lincheck;

import dev.consistentcut.runtime.Quiescence;
import dev.consistentcut.stress.broken.BrokenNoNewsLeftOfEndedTasks;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.Function;
import java.util.function.Predicate;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.lincheck.datastructures.Operation;
import org.junit.jupiter.api.Test;

/**
 * The threaded runtime's end of run against the last abort's news: the end check
 * ({@link Quiescence#reached} with {@link Quiescence#noNewsLeft} in its quiet inspection, as
 * {@code ThreadedRuntime} has them) never ends a run before every running task has taken its abort
 * news, and it does not wait for tasks that have ended (they take no more). Checkpoint 1 was
 * aborted before the parallel part; {@code running}, a task that has not ended, has its news, and in
 * a second scenario so has {@code ended}, a task that has ended. Two threads: the running task's round (its step takes the news,
 * counted as a worker's step) and one look of the coordinator thread, which stops the task once it
 * declares the end. Afterwards, no run may have ended with the running task's news untaken, and a
 * last look must declare the end (the ended task's news left as it is).
 *
 * <p>Bound: the model checker tries up to {@link ModelChecked#invocations()} interleavings of that scenario
 * (1,000 quick, 10,000 long, per scenario; a switch point at every read and write of a count, the news or the
 * stop). The broken twin is {@code noNewsLeft} with its test of a task's end negated:
 * the first scenario catches it ending the run before the running task heard, the second waiting
 * for the ended task's news for good; a look that ignores abort news altogether (the mutant of
 * {@code ThreadedRuntime.noAbortNews} that answers "none") is caught by the first.
 */
class EndOfRunAbortNewsTest {

    /** {@link Quiescence#noNewsLeft} or a broken twin of it. */
    interface NoNewsLeft {
        boolean noNewsLeft(List<String> tasks, Predicate<String> ended, Function<String, OptionalLong> news);
    }

    abstract static class NewsAtTheEnd {
        private final Quiescence.Steps running = new Quiescence.Steps();
        private final NoNewsLeft noNewsLeft;
        /** The coordinator's abort notifications still to take, per task (checkpoint 1, or none). */
        private boolean runningHasNews = true;
        private boolean endedHasNews;
        private volatile boolean stopped;

        NewsAtTheEnd(NoNewsLeft noNewsLeft) {
            this.noNewsLeft = noNewsLeft;
        }

        private synchronized OptionalLong nextAbortNotificationFor(String task) {
            boolean news = task.equals("running") ? runningHasNews : endedHasNews;
            return news ? OptionalLong.of(1) : OptionalLong.empty();
        }

        private synchronized void abortNotified() {
            runningHasNews = false;
        }

        private boolean quiet() {
            return noNewsLeft.noNewsLeft(List.of("running", "ended"), "ended"::equals, this::nextAbortNotificationFor);
        }

        /** Before the threads: the ended task has news of checkpoint 1 too, which it never takes. */
        @Operation
        public synchronized void endedTaskHasNews() {
            endedHasNews = true;
        }

        /** The running task's round: its step (NotifyCheckpointAborted) is enabled while it has news. */
        @Operation
        public void takeNews() {
            if (stopped || nextAbortNotificationFor("running").isEmpty()) {
                return;
            }
            running.begin();
            abortNotified();
            running.end(1);
        }

        /** One look of the coordinator thread; at the end it stops the task. */
        @Operation
        public void endCheck() {
            if (Quiescence.reached(List.of(running), this::quiet)) {
                stopped = true;
            }
        }

        /** After the threads: whether the run ended before the running task took its news. */
        @Operation
        public boolean newsLeftBehind() {
            return stopped && nextAbortNotificationFor("running").isPresent();
        }

        /** After the threads, with every step done: the coordinator's last look. */
        @Operation
        public boolean lastLookEnds() {
            return Quiescence.reached(List.of(running), this::quiet);
        }
    }

    public static class Engine extends NewsAtTheEnd {
        public Engine() {
            super(Quiescence::noNewsLeft);
        }
    }

    public static class EndedNegated extends NewsAtTheEnd {
        public EndedNegated() {
            super(BrokenNoNewsLeftOfEndedTasks::noNewsLeft);
        }
    }

    /** {@code ThreadedRuntime.noAbortNews} answering "no news" whatever the tasks have, as a mutant of it has it. */
    public static class NewsIgnored extends NewsAtTheEnd {
        public NewsIgnored() {
            super((tasks, ended, news) -> true);
        }
    }

    /** What must hold in any order: a look may find the run going; an ended one left no news behind. */
    public static class EveryRunningTaskHeard {
        public void endedTaskHasNews() {
        }

        public void takeNews() {
        }

        public void endCheck() {
        }

        public boolean newsLeftBehind() {
            return false;
        }

        public boolean lastLookEnds() {
            return true;
        }
    }

    private static ExecutionScenario newsVersusEndCheck(Class<?> ops) {
        return Scenarios.of(ops).thread("takeNews").thread("endCheck")
                .post("newsLeftBehind").post("lastLookEnds").build();
    }

    private static ExecutionScenario newsVersusEndCheckBesideAnEndedTasksNews(Class<?> ops) {
        return Scenarios.of(ops).init("endedTaskHasNews").thread("takeNews").thread("endCheck")
                .post("newsLeftBehind").post("lastLookEnds").build();
    }

    @Test
    void aRunEndsOnlyOnceEveryRunningTaskHasTakenItsAbortNews() {
        ModelChecked.holds(EveryRunningTaskHeard.class, Engine.class,
                EndOfRunAbortNewsTest::newsVersusEndCheck, EndOfRunAbortNewsTest::newsVersusEndCheckBesideAnEndedTasksNews);
    }

    /** The race: the look declares the end while the running task has not taken its news. */
    @Test
    void modelCheckingFindsARunEndedBeforeARunningTaskHeardOfTheAbort() {
        ModelChecked.caught("end check that does not wait for a running task's news", EveryRunningTaskHeard.class,
                EndedNegated.class, EndOfRunAbortNewsTest::newsVersusEndCheck);
    }

    /** The run's look that ignores abort news altogether ends the run in the same race. */
    @Test
    void modelCheckingFindsARunEndedWhileIgnoringAbortNews() {
        ModelChecked.caught("end check that ignores abort news", EveryRunningTaskHeard.class,
                NewsIgnored.class, EndOfRunAbortNewsTest::newsVersusEndCheck);
    }

    /** The other half of the mutant: it waits for an ended task's news, which never goes (a hang). */
    @Test
    void modelCheckingFindsARunThatWaitsForAnEndedTasksNews() {
        ModelChecked.caught("end check that waits for an ended task's news", EveryRunningTaskHeard.class,
                EndedNegated.class, EndOfRunAbortNewsTest::newsVersusEndCheckBesideAnEndedTasksNews);
    }
}
