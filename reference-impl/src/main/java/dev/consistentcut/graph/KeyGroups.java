package dev.consistentcut.graph;

/**
 * Key groups, with Flink's semantics ({@code org.apache.flink.runtime.state.KeyGroupRangeAssignment},
 * tested there by {@code KeyGroupRangeAssignmentTest}): the unit in which keyed state moves when an
 * operator's parallelism changes. A job has a fixed maximum parallelism {@code M}; a key belongs to
 * key group {@code murmur(hash(key)) mod M} for all time, and an operator of parallelism {@code p}
 * gives task {@code i} the contiguous range of groups {@code g} with {@code g * p / M = i}. A
 * rescale therefore moves whole key groups between tasks and never splits one. The spec's
 * {@code KeyGroupOf}, {@code Owner} and {@code KeyGroupRange} (spec/rescale/RescaleRestore.tla).
 *
 * <p>Stateless and thread-safe.
 */
public final class KeyGroups {

    /** The maximum parallelism of a job that does not set one (Flink's lower bound of its default, 128). */
    public static final int DEFAULT_MAX_PARALLELISM = 128;
    /** The largest maximum parallelism (Flink's {@code UPPER_BOUND_MAX_PARALLELISM}, 2^15). */
    public static final int UPPER_BOUND_MAX_PARALLELISM = 1 << 15;

    private KeyGroups() {
    }

    /**
     * The key group of {@code key}: Flink's {@code assignToKeyGroup}, the non-negative murmur hash
     * ({@code MathUtils.murmurHash}) of the key's Java hash code, modulo {@code maxParallelism}.
     */
    public static int keyGroupOf(long key, int maxParallelism) {
        checkMaxParallelism(maxParallelism);
        return murmurHash(Long.hashCode(key)) % maxParallelism;
    }

    /** Flink's {@code computeOperatorIndexForKeyGroup}: the task of an operator of {@code parallelism} owning {@code keyGroup}. */
    public static int owner(int keyGroup, int parallelism, int maxParallelism) {
        check(parallelism, maxParallelism);
        if (keyGroup < 0 || keyGroup >= maxParallelism) {
            throw new IllegalArgumentException("key group " + keyGroup + " is not in 0.." + (maxParallelism - 1));
        }
        return keyGroup * parallelism / maxParallelism;
    }

    /** The task a record with {@code key} goes to on a HASH edge into {@code parallelism} tasks. */
    public static int ownerOfKey(long key, int parallelism, int maxParallelism) {
        return owner(keyGroupOf(key, maxParallelism), parallelism, maxParallelism);
    }

    /** A contiguous range of key groups, both ends included. */
    public record Range(int first, int last) {
        public boolean contains(int keyGroup) {
            return keyGroup >= first && keyGroup <= last;
        }

        /** How many groups; 0 for a task that owns none (only when parallelism exceeds the maximum, which is refused). */
        public int size() {
            return Math.max(0, last - first + 1);
        }

        @Override
        public String toString() {
            return first + "-" + last;
        }
    }

    /**
     * Flink's {@code computeKeyGroupRangeForOperatorIndex}: the groups of task {@code index}, from
     * {@code ceil(index * M / p)} to {@code ceil((index + 1) * M / p) - 1}; exactly the groups
     * {@link #owner} gives to {@code index}.
     */
    public static Range range(int index, int parallelism, int maxParallelism) {
        check(parallelism, maxParallelism);
        if (index < 0 || index >= parallelism) {
            throw new IllegalArgumentException("task index " + index + " is not in 0.." + (parallelism - 1));
        }
        int first = (index * maxParallelism + parallelism - 1) / parallelism;
        int last = ((index + 1) * maxParallelism - 1) / parallelism;
        return new Range(first, last);
    }

    /** Refuses a maximum parallelism outside 1..{@value #UPPER_BOUND_MAX_PARALLELISM}. */
    public static void checkMaxParallelism(int maxParallelism) {
        if (maxParallelism < 1 || maxParallelism > UPPER_BOUND_MAX_PARALLELISM) {
            throw new IllegalArgumentException("max parallelism must be in 1.." + UPPER_BOUND_MAX_PARALLELISM
                    + ", got " + maxParallelism);
        }
    }

    private static void check(int parallelism, int maxParallelism) {
        checkMaxParallelism(maxParallelism);
        if (parallelism < 1 || parallelism > maxParallelism) {
            throw new IllegalArgumentException("parallelism must be in 1.." + maxParallelism + " (the max parallelism), got "
                    + parallelism);
        }
    }

    /**
     * The 32-bit murmur hash of one int as Flink's {@code MathUtils.murmurHash} computes it (one
     * block of MurmurHash3_x86_32 with seed 0 and length 4, then the finaliser), made non-negative
     * the way Flink does: a negative hash is negated, {@code Integer.MIN_VALUE} becomes 0.
     */
    static int murmurHash(int code) {
        int h = code * 0xcc9e2d51;
        h = Integer.rotateLeft(h, 15);
        h *= 0x1b873593;
        h = Integer.rotateLeft(h, 13);
        h = h * 5 + 0xe6546b64;
        h ^= 4;
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        h ^= h >>> 16;
        if (h >= 0) {
            return h;
        }
        return h != Integer.MIN_VALUE ? -h : 0;
    }
}
