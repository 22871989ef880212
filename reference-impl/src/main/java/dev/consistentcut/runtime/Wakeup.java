package dev.consistentcut.runtime;

import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A sticky wake-up signal for one waiting thread: {@link #signal()} before {@link #await()} is
 * not lost. The waiter calls {@link #clear()}, then checks for work, then {@link #await()}s; any
 * signal after the clear ends the wait. Thread-safe: any thread may signal; one thread waits.
 * Memory consistency: actions before {@code signal()} happen-before the return of the
 * {@code await()} it ends.
 */
final class Wakeup {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition signalled = lock.newCondition();
    private boolean pending;

    void signal() {
        lock.lock();
        try {
            pending = true;
            signalled.signal();
        } finally {
            lock.unlock();
        }
    }

    void clear() {
        lock.lock();
        try {
            pending = false;
        } finally {
            lock.unlock();
        }
    }

    /** Waits until a signal since the last {@link #clear()}; does not react to interrupts (see ThreadedRuntime). */
    void await() {
        lock.lock();
        try {
            while (!pending) {
                signalled.awaitUninterruptibly();
            }
        } finally {
            lock.unlock();
        }
    }
}
