package dev.consistentcut.message;

/**
 * A cancellation barrier of checkpoint {@code checkpointId} (Flink's {@code CancelCheckpointMarker}):
 * the sender has abandoned that checkpoint, so the receiver abandons it too. It travels like a
 * barrier of the job's mode: in-band for aligned and at-least-once jobs, in the priority lane for
 * unaligned ones (Flink sends the marker as a priority event). Immutable and thread-safe.
 */
public record CancelBarrier(long checkpointId) implements Message {

    public CancelBarrier {
        if (checkpointId < 1) {
            throw new IllegalArgumentException("checkpointId must be >= 1, got " + checkpointId);
        }
    }
}
