package dev.consistentcut.checkpoint;

import java.util.List;

/**
 * Materialises an operator state kept as a {@link Changelog}: the whole state from its base (a
 * whole state) and the change segments after it, in order; the bytes {@code snapshotState} of the
 * operator would have given. Must be a pure function: it is called on whatever thread reads a
 * {@link TaskSnapshot}'s whole state.
 */
@FunctionalInterface
public interface StateMerge {

    /** Chains of whole states only: each chain is one segment, the state itself. */
    StateMerge WHOLE = segments -> {
        if (segments.size() != 1) {
            throw new IllegalStateException("a whole-state chain has one segment, got " + segments.size());
        }
        return segments.get(0);
    };

    /** The whole state of {@code segments} (base first, never empty). */
    byte[] merge(List<byte[]> segments);
}
