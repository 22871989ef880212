package dev.consistentcut.operator;

import java.util.List;

/**
 * An {@link Operator} that can give the changes to its state since its previous snapshot, so that
 * its task snapshots it as a changelog (Flink's changelog state backend, FLIP-158): each snapshot
 * costs the changes, not the whole state. Operators without it are snapshotted whole each time.
 *
 * <p>Not thread-safe, as {@link Operator}; only {@link #mergeState} may be called from any thread.
 */
public interface ChangelogState {

    /**
     * The changes since the previous call (or since the operator was made or restored), encoded;
     * the next call starts from here.
     */
    byte[] snapshotChanges();

    /** The length {@link Operator#snapshotState} would give now, found without encoding the state. */
    long stateSize();

    /**
     * The whole state, as {@link Operator#snapshotState} encodes it, of a whole state ({@code
     * segments.get(0)}, from {@code snapshotState}) followed by changes from {@link
     * #snapshotChanges}, in order. A pure function of its argument: it neither reads nor changes
     * this instance's state.
     *
     * @throws IllegalArgumentException if a segment is not a valid encoding for this operator
     */
    byte[] mergeState(List<byte[]> segments);
}
