package dev.consistentcut.stress.lincheck;

import dev.consistentcut.runtime.NewsGeneration;
import dev.consistentcut.runtime.Wakeup;
import java.util.OptionalLong;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.lincheck.datastructures.Operation;
import org.junit.jupiter.api.Test;

/**
 * A task idle when an abort comes hears of it: no lost wake-up between a task thread going idle
 * and the coordinator thread's abort. The task's round is the worker's ({@code Worker.run}): clear
 * its {@link Wakeup}, ask for abort news through the gateway's cache ({@link NewsGeneration#news},
 * which may answer "nothing" from its mark without asking), and wait when there is none. The
 * coordinator thread aborts a checkpoint (news for the task), moves the generation
 * ({@link NewsGeneration#changed()}, as every coordinator step does), then, as
 * {@code ThreadedRuntime.run}'s loop does next, signals the tasks once the abort count has moved.
 * The real {@link Wakeup} and {@link NewsGeneration}; the coordinator's state and the run's three
 * lines of the abort wake-up are written out here (the run itself is the whole runtime). A task
 * left waiting for good is a hang the model checker reports.
 *
 * <p>Bound: the model checker tries up to {@link ModelChecked#invocations()} interleavings of the two
 * threads (1,000 quick, 10,000 long; a switch point at every lock, read and write of the wake-up,
 * the generation, the mark and the coordinator's state). The broken twin is the run without that
 * wake-up (the mutant that removes the signal): a task that asked before the abort sleeps through it.
 */
class AbortNewsWakeupTest {

    public static class IdleTaskAndAbort {
        private final Wakeup wakeup = new Wakeup();
        private final NewsGeneration generation = new NewsGeneration();
        private final long[] noAbortNewsAt = NewsGeneration.neverAnswered();
        /** The coordinator's state: aborts so far, and the task's notification still to take. */
        private long abortCount;
        private boolean news;
        /** Coordinator thread only: the abort count when the tasks were last woken. */
        private long abortsSeen;

        private synchronized OptionalLong nextAbortNotification() {
            return news ? OptionalLong.of(1) : OptionalLong.empty();
        }

        private synchronized void abortNotified() {
            news = false;
        }

        private synchronized void abortCheckpoint1() {
            abortCount++;
            news = true;
        }

        private synchronized long abortCount() {
            return abortCount;
        }

        /** The task thread: rounds until it has taken the abort's news (NotifyCheckpointAborted). */
        @Operation
        public String idleUntilNews() {
            while (wakeup.clearUnlessStopped()) {
                if (generation.news(noAbortNewsAt, () -> true, this::nextAbortNotification).isPresent()) {
                    abortNotified();
                    return "took";
                }
                wakeup.await(); // no step enabled
            }
            return "stopped";
        }

        /** The coordinator thread: the abort as a coordinator step, then the run's look at the abort count. */
        @Operation
        public void abort() {
            abortCheckpoint1();
            generation.changed();
            long aborts = abortCount();
            if (aborts != abortsSeen) {
                abortsSeen = aborts;
                wakeTasks();
            }
        }

        /** The run's wake-up of the tasks with the news. */
        void wakeTasks() {
            wakeup.signal();
        }
    }

    /** The run without the wake-up when the abort count moved. */
    public static class WithoutTheWakeup extends IdleTaskAndAbort {
        @Override
        void wakeTasks() {
            // THE BUG (deliberately): the tasks are not woken with the news
        }
    }

    /** What must happen in any order: the task takes the news. */
    public static class TaskHears {
        public String idleUntilNews() {
            return "took";
        }

        public void abort() {
        }
    }

    private static ExecutionScenario idleTaskVersusAbort(Class<?> ops) {
        return Scenarios.of(ops).thread("idleUntilNews").thread("abort").build();
    }

    @Test
    void aTaskIdleWhenTheAbortComesHearsOfIt() {
        ModelChecked.holds(TaskHears.class, IdleTaskAndAbort.class, AbortNewsWakeupTest::idleTaskVersusAbort);
    }

    @Test
    void modelCheckingFindsTheTaskSleepingThroughTheAbortWithoutTheWakeup() {
        ModelChecked.caught("run without the tasks' wake-up when the abort count moved", TaskHears.class,
                WithoutTheWakeup.class, AbortNewsWakeupTest::idleTaskVersusAbort);
    }
}
