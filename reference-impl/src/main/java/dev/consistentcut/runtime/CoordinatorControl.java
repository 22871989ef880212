package dev.consistentcut.runtime;

import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The hand-over between a {@link ThreadedRuntime}'s coordinator thread and every other thread,
 * under one lock ({@code control}): wake-ups of the coordinator thread, and failures asked for
 * from another thread ({@link ThreadedRuntime#failAndRestore()}), which the coordinator thread
 * performs while the asking thread waits.
 *
 * <p>Which thread calls what: {@link #begin()}, {@link #awaitWork}, {@link #requestedFailures()},
 * {@link #failurePerformed()} and {@link #end()}: the coordinator thread; {@link #wake()}: any
 * thread; {@link #requestFailureAndWait}: any thread but the coordinator thread and the task
 * threads.
 */
final class CoordinatorControl {
    private final ReentrantLock control = new ReentrantLock();
    private final Condition coordinatorWake = control.newCondition();
    private final Condition failureDone = control.newCondition();
    // Guarded by control.
    private boolean wakeRequested;
    private int failuresRequested;
    private int failuresPerformed;
    private Thread coordinatorThread;

    /** The calling thread becomes the coordinator thread; once per runtime. */
    void begin() {
        control.lock();
        try {
            if (coordinatorThread != null) {
                throw new IllegalStateException("ThreadedRuntime.run() may be called once");
            }
            coordinatorThread = Thread.currentThread();
        } finally {
            control.unlock();
        }
    }

    /** The run is over (normally or not): every thread still waiting for a failure is let go. */
    void end() {
        control.lock();
        try {
            coordinatorThread = null;
            failureDone.signalAll();
        } finally {
            control.unlock();
        }
    }

    /** Any thread: the coordinator thread looks again at once. */
    void wake() {
        control.lock();
        try {
            wakeRequested = true;
            coordinatorWake.signal();
        } finally {
            control.unlock();
        }
    }

    /** Waits until {@link #wake()} or for {@code nanos}, whichever comes first. */
    void awaitWork(long nanos) {
        control.lock();
        try {
            long left = nanos;
            while (!wakeRequested && left > 0) {
                left = coordinatorWake.awaitNanos(left);
            }
            wakeRequested = false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("coordinator thread interrupted", e);
        } finally {
            control.unlock();
        }
    }

    /**
     * Asks the coordinator thread for a failure and waits until it has performed it, or until the
     * run is over.
     *
     * @param onTaskThread whether the caller is one of the runtime's task threads (refused)
     */
    void requestFailureAndWait(boolean onTaskThread) {
        control.lock();
        try {
            if (coordinatorThread == null) {
                throw new IllegalStateException("failAndRestore needs a running run()");
            }
            if (Thread.currentThread() == coordinatorThread) {
                throw new IllegalStateException("the coordinator thread fails the job itself; do not call failAndRestore from it");
            }
            if (onTaskThread) {
                throw new IllegalStateException("a task thread cannot fail the job: it would wait for itself to stop");
            }
            int target = ++failuresRequested;
            wakeRequested = true;
            coordinatorWake.signal();
            while (failuresPerformed < target && coordinatorThread != null) {
                failureDone.awaitUninterruptibly();
            }
        } finally {
            control.unlock();
        }
    }

    /** The failures asked for and not yet performed. */
    int requestedFailures() {
        control.lock();
        try {
            return failuresRequested - failuresPerformed;
        } finally {
            control.unlock();
        }
    }

    /** One asked-for failure is done: its caller may go. */
    void failurePerformed() {
        control.lock();
        try {
            failuresPerformed++;
            failureDone.signalAll();
        } finally {
            control.unlock();
        }
    }
}
