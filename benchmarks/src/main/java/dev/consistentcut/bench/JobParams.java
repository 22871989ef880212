package dev.consistentcut.bench;

/**
 * The demo job's sizes that the scaling sweep varies (reference engine only); every other run
 * uses {@link #DEMO}, the sizes of {@link JobShape}.
 *
 * @param parallelism instances of the keyed count (at least 1)
 * @param capacity records each channel holds (at least 1)
 * @param bufferSize records per network buffer; 0 a quarter of the capacity
 * @param keys distinct keys the sources draw (at least 1)
 */
public record JobParams(int parallelism, int capacity, int bufferSize, int keys) {

    /** The demo job's sizes. */
    public static final JobParams DEMO = new JobParams(JobShape.COUNT_PARALLELISM, JobShape.CHANNEL_CAPACITY, 0, JobShape.KEYS);

    public JobParams {
        if (parallelism < 1 || capacity < 1 || bufferSize < 0 || keys < 1) {
            throw new IllegalArgumentException("job sizes out of range: parallelism " + parallelism + ", capacity "
                    + capacity + ", buffer size " + bufferSize + ", keys " + keys);
        }
    }

    /** Records per buffer as the engine sizes it: {@link #bufferSize}, or for 0 a quarter of the capacity. */
    public int effectiveBufferSize() {
        return Math.min(capacity, bufferSize > 0 ? bufferSize : Math.max(1, capacity / 4));
    }

    /** A short stable name, e.g. {@code p2-c1000-b250-k1000}. */
    public String name() {
        return "p" + parallelism + "-c" + capacity + "-b" + effectiveBufferSize() + "-k" + keys;
    }
}
