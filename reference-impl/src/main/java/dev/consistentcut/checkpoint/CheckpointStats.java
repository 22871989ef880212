package dev.consistentcut.checkpoint;

import java.util.Map;
import java.util.Objects;

/**
 * Measurements of one checkpoint. Times are in nanoseconds of {@link System#nanoTime()} in the
 * threaded runtime, and in simulation steps in the simulation runtime.
 *
 * @param triggerTime when the coordinator triggered the checkpoint
 * @param completionTime when the coordinator completed it
 * @param startDelay per task: from trigger to the task's first barrier of this checkpoint
 * @param alignmentDuration per task: from its first barrier to its last (0 for one input)
 * @param persistedRecords in-flight records persisted as channel state, all edges together
 * @param persistedBytes size of the persisted channel state as stored
 * @param stateBytes size of all operator states as stored
 */
public record CheckpointStats(
        long triggerTime,
        long completionTime,
        Map<String, Long> startDelay,
        Map<String, Long> alignmentDuration,
        long persistedRecords,
        long persistedBytes,
        long stateBytes) {

    public CheckpointStats {
        startDelay = Map.copyOf(Objects.requireNonNull(startDelay, "startDelay"));
        alignmentDuration = Map.copyOf(Objects.requireNonNull(alignmentDuration, "alignmentDuration"));
    }

    public long duration() {
        return completionTime - triggerTime;
    }

    /** The longest alignment of any task: what this checkpoint waited for skew. */
    public long maxAlignment() {
        return alignmentDuration.values().stream().mapToLong(Long::longValue).max().orElse(0);
    }
}
