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
    /** Every record to the one receiver instance {@link #hashTarget(long, int)} picks from its key. */
    HASH;

    /**
     * The receiver instance of a key on a {@link #HASH} edge into {@code parallelism} instances:
     * {@code floorMod(Long.hashCode(key) * 0x9E3779B1, parallelism)}. The multiplication by the
     * 32-bit golden-ratio constant spreads consecutive keys over instances; {@code floorMod} keeps
     * the result in {@code [0, parallelism)} for negative products.
     */
    public static int hashTarget(long key, int parallelism) {
        if (parallelism < 1) {
            throw new IllegalArgumentException("parallelism must be >= 1, got " + parallelism);
        }
        return Math.floorMod(Long.hashCode(key) * 0x9E3779B1, parallelism);
    }
}
