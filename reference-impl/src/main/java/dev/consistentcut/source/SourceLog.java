package dev.consistentcut.source;

import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;

/**
 * A replayable, finite log of records: offset {@code n} always holds the same key and value, so a
 * source task rewound to offset {@code n} after a failure reads exactly what it read before.
 * Offsets run from 0 to {@code length() - 1}.
 *
 * <p>Implementations are immutable after construction and therefore thread-safe.
 */
public interface SourceLog {

    /** The key and value stored at one offset. */
    record Entry(long key, long value) {
    }

    /** Number of records in the log. */
    long length();

    /** The entry at {@code offset}; {@link IndexOutOfBoundsException} naming the offset and length otherwise. */
    Entry entryAt(long offset);

    /** The record at {@code offset} as read by source task instance {@code source}. */
    default Record read(String source, long offset) {
        Entry e = entryAt(offset);
        return new Record(new RecordId(source, offset), e.key(), e.value());
    }
}
