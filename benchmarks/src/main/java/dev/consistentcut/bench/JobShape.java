package dev.consistentcut.bench;

import java.time.Duration;

/**
 * The demo job both engines run, and every constant that makes the two runs the same job: two
 * sources (the second one throttled when a scenario has skew) into a keyed count with parallelism
 * 2, then one slow sink whose per-record cost sets the backpressure level.
 */
public final class JobShape {

    /** Distinct keys; the keyed count's state holds one counter per key. */
    public static final int KEYS = 1_000;

    /** Parallelism of the keyed count, as in the demo job. */
    public static final int COUNT_PARALLELISM = 2;

    /** The checkpoint interval of every checkpointing scenario. */
    public static final Duration CHECKPOINT_INTERVAL = Duration.ofMillis(100);

    /**
     * The alignment timeout of the alternating scenarios (both engines): a fifth of the interval,
     * above an aligned checkpoint's duration without backpressure here (a few ms), far below it
     * under heavy backpressure (seconds).
     */
    public static final Duration ALIGNED_TIMEOUT = Duration.ofMillis(20);

    /**
     * Rate of the throttled second source when a scenario has skew: below half the heavy sink's
     * rate, so that even under heavy backpressure its channels stay nearly empty while the other
     * source's channels are full, and the barriers of the two sources arrive far apart.
     */
    public static final double THROTTLED_RECORDS_PER_SECOND = 200;

    /**
     * Records a channel of the reference engine holds. Flink's channels hold bytes, not records
     * (buffers of 8 KB, about 250 of this job's 32-byte records each, up to 10 per subpartition
     * and more on the receiving side); in a trial on this job under heavy backpressure an aligned
     * Flink checkpoint waited behind about 6,000 records. Six channels of 1,000 records give the
     * reference engine a backlog of the same order, so that both engines meet the same load.
     */
    public static final int CHANNEL_CAPACITY = 1_000;

    private JobShape() {
    }

    /** The key of the record at {@code offset}: spread over {@link #KEYS} keys, the same in both engines. */
    public static long keyAt(long offset) {
        return keyAt(offset, KEYS);
    }

    /** The key of the record at {@code offset} in a job of {@code keys} keys (the sweep varies them). */
    public static long keyAt(long offset, int keys) {
        return Math.floorMod(offset * 0x9E3779B97F4A7C15L >>> 17, keys);
    }
}
