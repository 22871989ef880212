package dev.consistentcut.stress.broken;

import dev.consistentcut.runtime.Wakeup;

/**
 * DELIBERATELY BROKEN: the task thread's loop as the threaded runtime had it until 2026-12-03, a
 * volatile stop flag beside the wake-up. The waiter reads the flag, then clears the wake-up; a
 * stop (flag set, then signal) that falls between the two has its signal erased, the waiter finds
 * nothing to do and waits for good. It exists only to show that the lincheck
 * {@code WakeupStopTest} finds that interleaving. Never use it otherwise.
 */
public final class BrokenStopFlagBesideWakeup {

    private final Wakeup wakeup = new Wakeup();
    private volatile boolean stop;

    /** The waiter's loop with never a step to do: leaves only once it sees the stop. */
    public void waiterLoop() {
        while (!stop) { // THE BUG: looked at apart from the clear below
            wakeup.clearUnlessStopped(); // never stopped itself: a plain clear
            wakeup.await();
        }
    }

    /** Stops the waiter as the old stopWorkers did: flag, then wake-up. */
    public void stop() {
        stop = true;
        wakeup.signal();
    }
}
