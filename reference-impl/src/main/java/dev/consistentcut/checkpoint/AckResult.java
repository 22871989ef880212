package dev.consistentcut.checkpoint;

/** What {@link CheckpointCoordinator#acknowledge} did with an acknowledgement. */
public enum AckResult {
    /** Recorded for a pending checkpoint; other tasks have yet to acknowledge it. */
    ACCEPTED,
    /**
     * Recorded, and it was the last one: the checkpoint is pending and every task has
     * acknowledged it. The caller now calls {@link CheckpointCoordinator#completeCheckpoint}.
     */
    ALL_ACKNOWLEDGED,
    /** The checkpoint was aborted: the acknowledgement only counts towards its barriers' travel. */
    IGNORED_ABORTED,
    /** The checkpoint was discarded by a failure ({@code FailAndRestore}) before this arrived. */
    IGNORED_DISCARDED
}
