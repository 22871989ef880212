package dev.consistentcut.graph;

/**
 * How an edge distributes the records of one sender instance over the receiver's instances: the
 * spec's {@code Route(n, r)} for one edge.
 */
public enum Partitioning {
    /** Sender instance {@code i} to receiver instance {@code i}; both sides need equal parallelism. */
    FORWARD,
    /** Every record to every receiver instance. */
    BROADCAST,
    /** Every record to the one receiver instance {@link #hashTarget(long, int, int)} picks from its key's key group. */
    HASH;

    /**
     * The receiver instance of a key on a {@link #HASH} edge into {@code parallelism} instances of
     * a job with {@code maxParallelism} key groups: the task owning the key's group
     * ({@link KeyGroups#ownerOfKey}), so that a rescale moves whole key groups.
     */
    public static int hashTarget(long key, int parallelism, int maxParallelism) {
        if (parallelism < 1) {
            throw new IllegalArgumentException("parallelism must be >= 1, got " + parallelism);
        }
        return KeyGroups.ownerOfKey(key, parallelism, maxParallelism);
    }
}
