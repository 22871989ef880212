package dev.consistentcut.checkpoint;

import java.util.Map;
import java.util.Objects;

/**
 * What a run keeps of a completed checkpoint after it has been checked: its id, the source offsets
 * of its cut, how many in-flight records it persisted and its measurements. Not its task snapshots
 * or channel state: those stay only in the checkpoints the store retains, so a run's memory does
 * not grow with every checkpoint's state (a long run completes thousands). Immutable and
 * thread-safe.
 *
 * @param id the checkpoint id
 * @param sourceOffsets per source task instance: the first offset not in the cut
 * @param persistedRecordCount all persisted in-flight records, all channels together
 * @param stats the checkpoint's measurements
 */
public record CheckpointSummary(long id, Map<String, Long> sourceOffsets, long persistedRecordCount,
                                CheckpointStats stats) {

    public CheckpointSummary {
        sourceOffsets = Map.copyOf(Objects.requireNonNull(sourceOffsets, "sourceOffsets"));
        Objects.requireNonNull(stats, "stats");
    }

    /** The summary of {@code c}. */
    public static CheckpointSummary of(CompletedCheckpoint c) {
        return new CheckpointSummary(c.id(), c.sourceOffsets(), c.persistedRecordCount(), c.stats());
    }
}
