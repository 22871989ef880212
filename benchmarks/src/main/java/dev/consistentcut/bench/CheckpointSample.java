package dev.consistentcut.bench;

/**
 * One completed checkpoint as an engine reported it.
 *
 * @param id the engine's checkpoint id
 * @param durationMs from trigger to completion
 * @param startDelayMs the longest time from trigger to a task's first barrier (the barrier's travel to the last task);
 *     NaN where not read (Flink: only a sample of checkpoints is read in detail)
 * @param alignmentMs the longest time from a task's first barrier to its last; NaN where not read
 * @param persistedRecords in-flight records persisted as channel state; -1 where the engine does not report records (Flink reports bytes)
 * @param persistedBytes in-flight data persisted as channel state
 * @param sizeBytes the whole checkpoint: operator state plus channel state
 * @param backlogRecords records queued in the job's channels when the checkpoint was triggered; -1 where not observable
 */
public record CheckpointSample(
        long id,
        double durationMs,
        double startDelayMs,
        double alignmentMs,
        long persistedRecords,
        long persistedBytes,
        long sizeBytes,
        long backlogRecords) {
}
