package dev.consistentcut.checkpoint;

/**
 * Where a checkpoint stands at the {@link CheckpointCoordinator}. The only transitions are
 * {@code NONE -> PENDING} (trigger), {@code PENDING -> COMPLETED} and {@code PENDING -> ABORTED};
 * COMPLETED and ABORTED are final and exclude each other.
 */
public enum CheckpointStatus {
    /** Never triggered. */
    NONE,
    /** Triggered; neither completed nor aborted yet. */
    PENDING,
    /** Every task acknowledged it and it was stored: a restorable consistent cut. */
    COMPLETED,
    /** Timed out, failed to store, or cut short by a failure. Never restorable. */
    ABORTED
}
