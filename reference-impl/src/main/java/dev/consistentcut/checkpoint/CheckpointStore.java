package dev.consistentcut.checkpoint;

import java.util.List;
import java.util.Optional;

/**
 * Where completed checkpoints live. Implementations are thread-safe. Sizes reported in
 * {@link CheckpointStats} are those of {@link CheckpointCodec}, whatever the store.
 */
public interface CheckpointStore {

    /**
     * Stores {@code c}; it is durable (as durable as the store is) when this returns, and becomes
     * {@link #latest()} if its id is the highest stored. Then keeps only the newest checkpoints
     * the store retains.
     *
     * @throws java.io.UncheckedIOException when it could not be stored; the previous latest
     *     checkpoint is left intact
     * @throws IllegalArgumentException when a checkpoint with this id is already stored (ids are
     *     never reused, so this is a caller's bug and nothing is overwritten)
     */
    void store(CompletedCheckpoint c);

    /**
     * The complete, valid checkpoint with the highest id, or empty when there is none. Never a
     * partially written checkpoint.
     */
    Optional<CompletedCheckpoint> latest();

    /** Ids of the checkpoints currently kept, ascending. */
    List<Long> retainedIds();

    /**
     * The checkpoints the last {@link #latest()} found damaged (unreadable, corrupt, of another
     * job) and fell back past: no longer restorable, so a restore point below them is the newest
     * one that is (the runtimes' {@code RestorePointInv} check counts only restorable
     * checkpoints as completed). Empty for a store that never loses a checkpoint.
     */
    default java.util.Set<Long> damagedIds() {
        return java.util.Set.of();
    }

    /**
     * Where the tasks' background materialisations write what they merged before a checkpoint
     * references it; {@link MaterialisedUploads#NONE} for a store that keeps no files.
     */
    default MaterialisedUploads materialisedUploads() {
        return MaterialisedUploads.NONE;
    }

    /**
     * The run that stored into this store has ended: what was uploaded ahead and no checkpoint
     * references is deleted, and nothing more is (a no-op for a store that keeps no files).
     */
    default void endRun() {
        // nothing uploaded ahead
    }
}
