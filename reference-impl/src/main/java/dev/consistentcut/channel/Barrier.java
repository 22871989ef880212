package dev.consistentcut.channel;

/**
 * A checkpoint barrier travelling through a channel. {@code checkpointId} starts at 1.
 * Immutable and thread-safe.
 */
public record Barrier(long checkpointId) implements ChannelElement {

    public Barrier {
        if (checkpointId < 1) {
            throw new IllegalArgumentException("checkpointId must be >= 1, got " + checkpointId);
        }
    }
}
