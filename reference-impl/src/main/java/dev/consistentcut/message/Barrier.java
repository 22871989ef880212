package dev.consistentcut.message;

/**
 * A checkpoint barrier travelling through a channel. {@code checkpointId} starts at 1.
 * Immutable and thread-safe.
 *
 * <p>As Flink's {@code CheckpointBarrier} carries its {@code CheckpointOptions}, a barrier says how
 * it must be handled. {@code aligned}: it travels in-band and is aligned (false: it overtakes, and
 * the checkpoint is handled unaligned from the task that receives it on; in alternating mode, a
 * barrier that timed out). {@code savepoint}: a forced-aligned checkpoint (Flink's
 * {@code FORCED_ALIGNED}), which never switches to unaligned. Only alternating mode reads the
 * flags; the other modes handle every barrier by their own rule.
 */
public record Barrier(long checkpointId, boolean aligned, boolean savepoint) implements Message {

    public Barrier {
        if (checkpointId < 1) {
            throw new IllegalArgumentException("checkpointId must be >= 1, got " + checkpointId);
        }
    }

    /** An aligned barrier of a checkpoint that is not a savepoint. */
    public Barrier(long checkpointId) {
        this(checkpointId, true, false);
    }

    /** The same checkpoint's barrier, converted to unaligned (Flink's {@code asUnaligned}). */
    public Barrier asUnaligned() {
        return new Barrier(checkpointId, false, savepoint);
    }
}
