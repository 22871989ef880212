package dev.consistentcut.checkpoint;

import dev.consistentcut.message.Record;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A completed checkpoint: a consistent cut of the running job. The spec's {@code snapOffset[c]},
 * {@code snapProcessed[c]} and {@code snapChan[c]} for one completed {@code c}.
 *
 * @param id the checkpoint id, starting at 1
 * @param sourceOffsets per source task instance: the offset recorded with its barrier (the first
 *     offset <em>not</em> in the cut)
 * @param taskSnapshots per operator task instance: its state and processed-record ledger
 * @param channelState per channel id: the in-flight records persisted for that channel, in FIFO
 *     order (always empty for aligned checkpoints)
 * @param stats measurements; not part of equality of the cut itself
 *
 * <p>Immutable and thread-safe (defensive copies).
 */
public record CompletedCheckpoint(
        long id,
        Map<String, Long> sourceOffsets,
        Map<String, TaskSnapshot> taskSnapshots,
        Map<String, List<Record>> channelState,
        CheckpointStats stats) {

    public CompletedCheckpoint {
        if (id < 1) {
            throw new IllegalArgumentException("checkpoint id must be >= 1, got " + id);
        }
        sourceOffsets = Map.copyOf(Objects.requireNonNull(sourceOffsets, "sourceOffsets"));
        taskSnapshots = Map.copyOf(Objects.requireNonNull(taskSnapshots, "taskSnapshots"));
        Objects.requireNonNull(channelState, "channelState");
        channelState = channelState.entrySet().stream()
                .collect(java.util.stream.Collectors.toUnmodifiableMap(
                        Map.Entry::getKey, e -> List.copyOf(e.getValue())));
        Objects.requireNonNull(stats, "stats");
    }

    /** All persisted in-flight records, all channels together. */
    public long persistedRecordCount() {
        return channelState.values().stream().mapToLong(List::size).sum();
    }
}
