package dev.consistentcut.runtime;

import dev.consistentcut.annotation.TestSeam;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * How the coordinator thread of a {@link ThreadedRuntime} tells that a run has nothing left to do
 * while its task threads still run: the task threads count their steps ({@link Steps}), and a
 * quiet inspection counts only if no step was running at its start and none started until its end
 * ({@link #reached}). A step that took a channel's last element before the inspection read the
 * channel and puts its result after it would otherwise let the run end with that result in a
 * channel that nobody takes from any more.
 *
 * <p>Public for the stress tests' lincheck harness, which model-checks these reads against a
 * step; the engine uses it from {@link ThreadedRuntime} and {@link Worker} only.
 */
@TestSeam
public final class Quiescence {

    private Quiescence() {
    }

    /**
     * One task thread's steps, started and finished. Threading: {@link #begin()} and
     * {@link #end(int)} by the task's own thread only; the reads by any thread (the coordinator's).
     * Each worker has its own instance: no counter shared between task threads on the hot path.
     */
    public static final class Steps {
        private volatile long started;
        private volatile long finished;

        /** Before a step: the started count moves first, so that a reader sees it running. */
        public void begin() {
            started = started + 1;
        }

        /**
         * After the step began by {@link #begin()}, which performed {@code n} steps in all (a chosen
         * step and its repetitions): both counts grow by {@code n}, started first ({@link #reached}
         * reads finished, then started: equal means between steps).
         */
        public void end(int n) {
            started = started + (n - 1);
            finished = finished + n;
        }

        public long started() {
            return started;
        }

        public long finished() {
            return finished;
        }
    }

    /**
     * Quiescence: every thread between steps at the first look (its finished count, then its
     * started count, equal), {@code quiet} (nothing left to do, inspected after that look), and no
     * thread started a step since. Coordinator thread.
     */
    public static boolean reached(List<Steps> threads, BooleanSupplier quiet) {
        long started = 0;
        for (Steps t : threads) {
            long f = t.finished;
            long s = t.started;
            if (s != f) {
                return false;
            }
            started += s;
        }
        if (!quiet.getAsBoolean()) {
            return false;
        }
        long again = 0;
        for (Steps t : threads) {
            again += t.started;
        }
        return again == started;
    }

    /**
     * No task that has not ended has news still to take ({@code news}: its next abort notification);
     * part of a quiet inspection, so that the run does not end before every running task has heard
     * of every abort. An ended task takes no more abort news.
     */
    public static <T> boolean noNewsLeft(Iterable<T> tasks, Predicate<T> ended, Function<T, OptionalLong> news) {
        for (T t : tasks) {
            if (!ended.test(t) && news.apply(t).isPresent()) {
                return false;
            }
        }
        return true;
    }
}
