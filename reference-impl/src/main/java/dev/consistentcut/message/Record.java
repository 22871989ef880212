package dev.consistentcut.message;

import java.util.Objects;

/**
 * A data record flowing through the job: its identity, the key that every hash-partitioned edge
 * routes by, and a value that operators may transform. Operators never change {@code id} or
 * {@code key}; they may change {@code value}. Immutable and thread-safe.
 */
public record Record(RecordId id, long key, long value) implements Message {

    public Record {
        Objects.requireNonNull(id, "id");
    }

    /** The same record with another value: what a map or join operator emits. */
    public Record withValue(long newValue) {
        return new Record(id, key, newValue);
    }
}
