package dev.consistentcut.runtime;

import java.util.concurrent.locks.ReentrantLock;

/**
 * How the threaded runtime orders its steps with the events they tell: held around every task
 * step, every coordinator step and every flush of a task's buffers. Whoever installs an observer
 * that needs one order of steps (a trace recorder) passes {@link #oneAtATime()}; the runtime takes
 * and releases what it is given, without asking which. A causal trace orders the task steps by
 * their channels' locks instead, an ordering of the same kind ({@link CausalWiring}); its flushes
 * still take the one given.
 *
 * <p><b>Threading contract.</b> {@link #lock} and {@link #unlock} are called in pairs, on the
 * thread that performs the step: the task threads and the coordinator thread, concurrently. An
 * implementation that lets one step in at a time makes the observer's calls an order in which
 * the steps happened one at a time; {@link #CONCURRENT} lets them race, so the observer must then
 * be thread-safe. One instance serves one run at a time.
 */
public interface StepOrdering {

    /** Steps race as the runtime schedules them: nothing is held (the default). */
    StepOrdering CONCURRENT = new StepOrdering() {
        @Override
        public void lock() {
        }

        @Override
        public void unlock() {
        }
    };

    void lock();

    void unlock();

    /** Runs {@code step} holding this. */
    default void run(Runnable step) {
        lock();
        try {
            step.run();
        } finally {
            unlock();
        }
    }

    /** One step at a time, under one lock: a trace's order (tracing serializes the run). */
    static StepOrdering oneAtATime() {
        ReentrantLock lock = new ReentrantLock();
        return new StepOrdering() {
            @Override
            public void lock() {
                lock.lock();
            }

            @Override
            public void unlock() {
                lock.unlock();
            }
        };
    }
}
