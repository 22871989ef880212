package dev.consistentcut.channel;

/**
 * Causal tracing: told of every element put into or taken from a {@link Channel} by the
 * {@link CausalChannel} around it, on the thread that does it and under that decorator's lock, so
 * that the clocks it keeps change atomically with the channel
 * ({@code dev.consistentcut.causal.VectorClocks}). A channel without the decorator tells no clock.
 */
public interface ChannelClock {

    /** The sender put an element: a record, or an overtaking (priority-lane) element when {@code overtaking}. */
    void put(boolean record, boolean overtaking);

    /** The receiver took an element (or moved a barrier ahead: a passive alignment timeout). */
    void take(boolean record);

    /** Recovery refilled the channel with {@code records} records (neither side runs). */
    void restored(int records);
}
