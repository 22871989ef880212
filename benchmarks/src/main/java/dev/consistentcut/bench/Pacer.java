package dev.consistentcut.bench;

import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Holds a thread to at most one event per {@code periodNanos} on average: the per-record cost of
 * the slow sink (the backpressure level) and the rate of the throttled source (the skew), the
 * same code in both engines so that both see the same load.
 *
 * <p>It paces against a grid of deadlines rather than sleeping a fixed time per event: a
 * {@code parkNanos} overshoots by tens of microseconds on Linux, and sleeping a fixed time would
 * add that overshoot to every record. On the grid an overshoot is caught up on the next event, so
 * the long-run rate is exactly {@code 1e9 / periodNanos}. At most one period of credit is kept
 * after an idle spell, so a burst after waiting for input is at most one record long.
 *
 * <p>Not thread-safe: one pacer per thread (a sink instance, a source instance).
 */
public final class Pacer {

    /** The most lost time a pacer makes up for with events in a burst. */
    public static final long MAX_CREDIT_NANOS = 10_000_000;

    /** How often a cancellable wait asks whether to give up. */
    public static final long CANCEL_CHECK_NANOS = 250_000;

    private final long periodNanos;
    private long nextDeadline;
    /** Whether {@link #nextDeadline} is the slot of an event still waited for (after a cancelled wait). */
    private boolean booked;

    /** A pacer with {@code periodNanos} between events; 0 means no pacing at all. */
    public Pacer(long periodNanos) {
        if (periodNanos < 0) {
            throw new IllegalArgumentException("periodNanos must be >= 0, got " + periodNanos);
        }
        this.periodNanos = periodNanos;
        this.nextDeadline = System.nanoTime();
    }

    /** A pacer for {@code perSecond} events per second; 0 or less means no pacing. */
    public static Pacer perSecond(double perSecond) {
        return new Pacer(perSecond <= 0 ? 0 : Math.round(1e9 / perSecond));
    }

    public long periodNanos() {
        return periodNanos;
    }

    /**
     * Waits until the next event is due, then books it. Returns at once if pacing is off or the
     * thread is behind schedule. Keeps the interrupt flag set if interrupted (and returns early).
     */
    public void await() {
        awaitUnless(null);
    }

    /**
     * Like {@link #await()}, but gives up as soon as {@code cancel} says so (asked every
     * {@link #CANCEL_CHECK_NANOS} while waiting): returns true when the event's time came, false
     * when cancelled. A cancelled wait keeps its slot on the grid: the next call waits for the
     * same slot, so cancelling never raises the long-run rate.
     *
     * @param cancel asked while waiting; null for a plain wait
     */
    public boolean awaitUnless(BooleanSupplier cancel) {
        if (periodNanos == 0) {
            return true;
        }
        if (!booked) {
            long now = System.nanoTime();
            nextDeadline = Math.max(nextDeadline, now - Math.max(periodNanos, MAX_CREDIT_NANOS)) + periodNanos;
            booked = true;
        }
        long wait;
        while ((wait = nextDeadline - System.nanoTime()) > 0 && !Thread.currentThread().isInterrupted()) {
            if (cancel != null && cancel.getAsBoolean()) {
                return false;
            }
            LockSupport.parkNanos(cancel == null ? wait : Math.min(wait, CANCEL_CHECK_NANOS));
        }
        booked = false;
        return true;
    }
}
