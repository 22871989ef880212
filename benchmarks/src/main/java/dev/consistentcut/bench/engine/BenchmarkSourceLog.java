package dev.consistentcut.bench.engine;

import dev.consistentcut.bench.JobShape;
import dev.consistentcut.bench.Pacer;
import dev.consistentcut.source.SourceLog;

/**
 * An endless generated log for the benchmark's sources, optionally throttled, that the benchmark
 * ends by {@link #close() closing} it. Offset {@code n} holds key {@link JobShape#keyAt(long)} and
 * value 1: the same records the Flink job's generator produces.
 *
 * <p><b>Benchmark use only.</b> {@link SourceLog} promises a fixed length, and a runtime rewinds
 * a source into its log after a failure. This log breaks that promise on purpose: the threaded
 * runtime runs until its sources are exhausted and has no other way to stop, so closing sets the
 * length to 0 (every offset is then past the end, the source task stops reading, and the run
 * drains and returns). Valid only for runs without failures, which is what the benchmark runs.
 *
 * <p><b>Throttling</b> happens in {@link #entryAt}, the first thing a source task does for each
 * new offset; the source thread waits there. The reference engine's source task has no way to say
 * "nothing available yet" without blocking, so a throttled source injects a barrier up to one
 * record interval late (5 ms at 200 records/s); Flink's rate limiter does not block barriers.
 *
 * <p>Thread-safety: {@link #entryAt} and {@link #length} are called by the one source thread,
 * {@link #close} by the benchmark thread; the closed flag is volatile.
 */
public final class BenchmarkSourceLog implements SourceLog {

    private final Pacer pacer;
    private volatile boolean closed;
    /** Source thread only: the highest offset already paced, so a re-read of it does not wait again. */
    private long pacedUpTo = -1;

    /** A log that yields at most {@code perSecond} records a second; 0 for no throttle. */
    public BenchmarkSourceLog(double perSecond) {
        this.pacer = Pacer.perSecond(perSecond);
    }

    @Override
    public long length() {
        return closed ? 0 : Long.MAX_VALUE;
    }

    @Override
    public Entry entryAt(long offset) {
        if (offset < 0) {
            throw new IndexOutOfBoundsException("offset " + offset + " is negative");
        }
        if (offset > pacedUpTo && !closed) {
            pacer.await();
            pacedUpTo = offset;
        }
        return new Entry(JobShape.keyAt(offset), 1);
    }

    /** Ends the log where its reader is: the source task finds itself exhausted. */
    public void close() {
        closed = true;
    }
}
