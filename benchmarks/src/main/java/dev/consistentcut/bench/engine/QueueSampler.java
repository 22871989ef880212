package dev.consistentcut.bench.engine;

import dev.consistentcut.channel.Channel;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Samples, every {@link #PERIOD_NANOS}, how many records are queued in all of a job's channels
 * together, so that each checkpoint's backlog at its trigger can be looked up afterwards (the
 * runtime offers no hook at the trigger that would not also cost on every record). Under
 * backpressure the channels stay full, so a sample at most 2 ms from the trigger is the backlog
 * the barrier met.
 *
 * <p>Its own daemon thread writes; {@link #at} is called after {@link #stop()} (join: happens-before).
 */
final class QueueSampler implements Runnable {

    static final long PERIOD_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

    private final List<Channel> channels;
    private final long[] times;
    private final long[] queued;
    private final Thread thread;
    private volatile boolean stop;
    private int count;

    /** A sampler with room for {@code capacity} samples (later samples are dropped). */
    QueueSampler(List<Channel> channels, int capacity) {
        this.channels = List.copyOf(channels);
        this.times = new long[capacity];
        this.queued = new long[capacity];
        this.thread = new Thread(this, "queue-sampler");
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    void stop() throws InterruptedException {
        stop = true;
        thread.join();
    }

    @Override
    public void run() {
        while (!stop && count < times.length) {
            long total = 0;
            for (Channel c : channels) {
                total += c.recordCount();
            }
            times[count] = System.nanoTime();
            queued[count] = total;
            count++;
            LockSupport.parkNanos(PERIOD_NANOS);
        }
    }

    /** The queued records of the sample nearest to {@code nanoTime}; -1 if there is none within 10 ms. */
    long at(long nanoTime) {
        int lo = 0;
        int hi = count - 1;
        if (hi < 0) {
            return -1;
        }
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (times[mid] < nanoTime) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        int best = lo;
        if (lo > 0 && Math.abs(times[lo - 1] - nanoTime) < Math.abs(times[lo] - nanoTime)) {
            best = lo - 1;
        }
        return Math.abs(times[best] - nanoTime) <= TimeUnit.MILLISECONDS.toNanos(10) ? queued[best] : -1;
    }
}
