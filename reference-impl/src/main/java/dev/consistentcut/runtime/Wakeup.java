package dev.consistentcut.runtime;

import dev.consistentcut.annotation.TestSeam;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A sticky wake-up signal for one waiting thread, and its stop request: {@link #signal()} before
 * {@link #await()} is not lost, and neither is {@link #stop()}. The waiter begins each round with
 * {@link #clearUnlessStopped()} (false: leave the loop), then checks for work, then
 * {@link #await()}s; any signal or stop after the clear ends the wait. Thread-safe: any thread may
 * signal or stop; one thread waits. Memory consistency: actions before {@code signal()} or
 * {@code stop()} happen-before the return of the {@code await()} or {@code clearUnlessStopped()}
 * that sees it.
 *
 * <p>Why the stop lives here and not in a flag beside it: a waiter that read a flag ("not
 * stopped"), then cleared, erased a {@code stop()} that fell between the two (its signal), found
 * no work and waited for good, and the thread stopping it waited in {@code join} for good: a
 * threaded run hung at its end or at a failure. Seen once in three runs of the engine's tests on
 * one busy core (2026-12-03); with a pause between the look and the clear, at least five tests
 * hung. The lincheck {@code WakeupStopTest} finds the interleaving in that old loop (its broken
 * twin).
 * Under one lock, look and clear are one step.
 *
 * <p>Public for the stress tests' lincheck harness only; the engine's task threads use it.
 */
@TestSeam
public final class Wakeup {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition signalled = lock.newCondition();
    private boolean pending;
    /** Set once, by {@link #stop()}, under the lock; volatile so that {@link #stopped()} needs none. */
    private volatile boolean stopped;

    public void signal() {
        lock.lock();
        try {
            pending = true;
            signalled.signal();
        } finally {
            lock.unlock();
        }
    }

    /** Asks the waiter to leave its loop: sticky, and it ends a wait as {@link #signal()} does. */
    public void stop() {
        lock.lock();
        try {
            stopped = true;
            pending = true;
            signalled.signal();
        } finally {
            lock.unlock();
        }
    }

    /** Whether {@link #stop()} was called; for waits of the waiter's own (a pause) that end early on a stop. */
    public boolean stopped() {
        return stopped;
    }

    /**
     * Forgets the signals so far, in the same step as it looks at the stop request: true while the
     * waiter should go on (then it checks for work and may {@link #await()}), false once
     * {@link #stop()} was called.
     */
    public boolean clearUnlessStopped() {
        lock.lock();
        try {
            pending = false;
            return !stopped;
        } finally {
            lock.unlock();
        }
    }

    /** Waits until a signal or stop since the last {@link #clearUnlessStopped()}; does not react to interrupts (see ThreadedRuntime). */
    public void await() {
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
