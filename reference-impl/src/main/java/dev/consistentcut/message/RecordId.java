package dev.consistentcut.message;

import java.util.Objects;

/**
 * The identity of a record: the source task instance that read it and its offset in that
 * source's log. The spec's record {@code [src |-> s, off |-> n]}.
 *
 * <p>A record keeps this identity through every operator (an operator emits exactly one record
 * per record it processes, with the same id), which is what lets the invariants count how often
 * each operator has seen each record. Immutable and thread-safe.
 */
public record RecordId(String source, long offset) implements Comparable<RecordId> {

    public RecordId {
        Objects.requireNonNull(source, "source");
        if (offset < 0) {
            throw new IllegalArgumentException("offset must be >= 0, got " + offset + " for source " + source);
        }
    }

    @Override
    public int compareTo(RecordId o) {
        int c = source.compareTo(o.source);
        return c != 0 ? c : Long.compare(offset, o.offset);
    }

    @Override
    public String toString() {
        return source + "@" + offset;
    }
}
