package dev.consistentcut.message;

/**
 * What a channel carries, the spec's {@code Messages}: a {@link Record}, a {@link Barrier}, a
 * {@link CancelBarrier} or {@link EndOfPartition}. Receivers tell them apart with
 * {@code instanceof}.
 */
public interface Message {
}
