package dev.consistentcut.bench.engine;

import dev.consistentcut.bench.JobShape;
import dev.consistentcut.bench.Pacer;
import dev.consistentcut.source.SourceLog;
import java.util.function.BooleanSupplier;

/**
 * An endless generated log for the benchmark's sources, optionally throttled, that the benchmark
 * {@link #open() opens} once the runtime is built and ends by {@link #close() closing} it. Offset
 * {@code n} holds key {@link JobShape#keyAt(long)} and value 1: the same records the Flink job's
 * generator produces.
 *
 * <p><b>Benchmark use only.</b> {@link SourceLog} promises a fixed length, and a runtime rewinds
 * a source into its log after a failure. This log breaks that promise on purpose, twice:
 * <ul>
 *   <li>Until {@link #open()} its length is 0: the threaded runtime's constructor reads every
 *       record of every log into its invariant checker, even with the ledgers (and so the cut
 *       checks) off, and an endless log would never fit in memory.</li>
 *   <li>After {@link #close()} it ends just after the offset its source task reads next: the
 *       threaded runtime runs until its sources are exhausted and has no other way to stop. The
 *       end is set by the source thread itself, in {@link #entryAt}, because a source task checks
 *       that its next record exists and then reads it: an end set by another thread between the
 *       two would make the read fail.</li>
 * </ul>
 * Valid only for runs without failures, which is what the benchmark runs.
 *
 * <p><b>Throttling</b> happens in {@link #entryAt}, the first thing a source task does for each
 * new offset; the source thread waits there. The reference engine's source task has no way to say
 * "nothing available yet" without blocking its thread, and a thread waiting for its next record
 * would inject a pending barrier up to two record intervals late (10 ms at 200 records/s), where
 * Flink's non-blocking rate limiter injects it at once. So the wait gives up as soon as the
 * runtime's coordinator has a barrier for this source ({@link #interruptWaitWhen}): the source
 * task then injects it, and waits for the same record's slot afterwards (the rate is kept).
 *
 * <p>Thread-safety: {@link #entryAt} and {@link #length} are called by the one source thread,
 * {@link #open} and {@link #close} by the benchmark thread; the length and the close request are
 * volatile, and only the source thread sets the end.
 */
public final class BenchmarkSourceLog implements SourceLog {

    private final Pacer pacer;
    private final int keys;
    /** The log's length: 0 until opened, then endless until the source thread sets its end after a close. */
    private volatile long length;
    private volatile boolean closeRequested;
    /** Source thread only: the highest offset already paced, so a re-read of it does not wait again. */
    private long pacedUpTo = -1;
    private volatile BooleanSupplier barrierPending;

    /** A log that yields at most {@code perSecond} records a second; 0 for no throttle. */
    public BenchmarkSourceLog(double perSecond) {
        this(perSecond, JobShape.KEYS);
    }

    /** As {@link #BenchmarkSourceLog(double)}, over {@code keys} distinct keys. */
    public BenchmarkSourceLog(double perSecond, int keys) {
        this.pacer = Pacer.perSecond(perSecond);
        this.keys = keys;
    }

    @Override
    public long length() {
        return length;
    }

    @Override
    public Entry entryAt(long offset) {
        if (offset < 0) {
            throw new IndexOutOfBoundsException("offset " + offset + " is negative");
        }
        if (closeRequested) {
            if (length == Long.MAX_VALUE) {
                length = offset + 1; // this record still exists; the next one does not
            }
        } else if (offset > pacedUpTo && pacer.awaitUnless(barrierPending)) {
            pacedUpTo = offset;
        }
        return new Entry(JobShape.keyAt(offset, keys), 1);
    }

    /** While the source thread waits for its next record, it gives up when {@code barrierPending} says so. */
    public void interruptWaitWhen(BooleanSupplier barrierPending) {
        this.barrierPending = barrierPending;
    }

    /** Starts the log: from now on it has every offset. */
    public void open() {
        length = Long.MAX_VALUE;
    }

    /** Ends the log where its reader is: after its next read, the source task finds itself exhausted. */
    public void close() {
        closeRequested = true;
    }
}
