package dev.consistentcut.runtime;

import java.util.List;

/**
 * What a step of the threaded runtime holds while it runs, chosen once at wiring: nothing, the
 * {@link StepOrdering} the observer's installer chose (one lock for a trace), or the locks of a task's channels (a causal
 * trace, {@link CausalWiring}). The step takes and releases it without asking which.
 *
 * <p><b>Threading contract.</b> {@link #lock} and {@link #unlock} are called in pairs on the
 * thread that performs the step; implementations are as thread-safe as the locks they take.
 */
interface StepLock {

    StepLock NONE = new StepLock() {
        @Override
        public void lock() {
        }

        @Override
        public void unlock() {
        }
    };

    void lock();

    void unlock();

    /** What the run's {@link StepOrdering} holds. */
    static StepLock of(StepOrdering lock) {
        return new StepLock() {
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

    /** Several, taken in list order (one global order: no deadlock between two steps) and released in reverse. */
    static StepLock all(List<StepLock> locks) {
        List<StepLock> ordered = List.copyOf(locks);
        return new StepLock() {
            @Override
            public void lock() {
                ordered.forEach(StepLock::lock);
            }

            @Override
            public void unlock() {
                for (int k = ordered.size() - 1; k >= 0; k--) {
                    ordered.get(k).unlock();
                }
            }
        };
    }

    /** Runs {@code step} holding this. */
    default void run(Runnable step) {
        lock();
        try {
            step.run();
        } finally {
            unlock();
        }
    }
}
