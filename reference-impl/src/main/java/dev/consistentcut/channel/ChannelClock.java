package dev.consistentcut.channel;

/**
 * Causal tracing (issue 13): told of every element put into or taken from a {@link Channel}, on
 * the thread that does it and under the channel's lock, so that the clocks it keeps change
 * atomically with the channel ({@code dev.consistentcut.causal.VectorClocks}). Off
 * ({@link #NONE}) unless a causal trace is recorded.
 */
public interface ChannelClock {

    ChannelClock NONE = new ChannelClock() {
        @Override
        public void put(boolean record, boolean overtaking) {
        }

        @Override
        public void take(boolean record) {
        }

        @Override
        public void restored(int records) {
        }
    };

    /** The sender put an element: a record, or an overtaking (priority-lane) element when {@code overtaking}. */
    void put(boolean record, boolean overtaking);

    /** The receiver took an element (or moved a barrier ahead: a passive alignment timeout). */
    void take(boolean record);

    /** Recovery refilled the channel with {@code records} records (neither side runs). */
    void restored(int records);
}
