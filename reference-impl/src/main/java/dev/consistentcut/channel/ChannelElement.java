package dev.consistentcut.channel;

/**
 * What a {@link Channel} carries: a {@link dev.consistentcut.record.Record} or a {@link Barrier}.
 * Receivers tell them apart with {@code instanceof}.
 */
public interface ChannelElement {
}
