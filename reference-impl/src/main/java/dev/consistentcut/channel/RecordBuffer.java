package dev.consistentcut.channel;

import dev.consistentcut.message.Record;

/**
 * A network buffer: up to a channel's buffer size of records, handed from the sender to the
 * receiver as one unit (Flink's {@code Buffer}). Filled by the sender while it is open; never
 * written again once handed over, so the receiver (and the sender, for an overtaking barrier's
 * persisted records) may read it without a lock. {@code firstSeq} is the channel's sequence
 * number of its first record (records are numbered 0, 1, ... per channel since the last restore).
 *
 * <p>It holds its records as objects or, sealed by {@link BufferEncoding#SERIALIZED}, as bytes;
 * {@link #records()} gives the objects either way, and {@link #readable()} the buffer the
 * receiver reads record by record.
 */
final class RecordBuffer {

    /** The records, or null while they are only bytes. */
    final Record[] records;
    /** The records serialized, or null if the buffer holds the objects. */
    private final byte[] bytes;
    final int size;
    final long firstSeq;
    /** 0, 1, ... in hand-over order since the last restore: the receiver releases them in this order. */
    final long ordinal;

    RecordBuffer(Record[] records, int size, long firstSeq, long ordinal) {
        this(records, null, size, firstSeq, ordinal);
    }

    private RecordBuffer(Record[] records, byte[] bytes, int size, long firstSeq, long ordinal) {
        this.records = records;
        this.bytes = bytes;
        this.size = size;
        this.firstSeq = firstSeq;
        this.ordinal = ordinal;
    }

    /** A buffer of {@code size} records serialized as {@code bytes} ({@link RecordCodec}). */
    static RecordBuffer serialized(byte[] bytes, int size, long firstSeq, long ordinal) {
        return new RecordBuffer(null, bytes, size, firstSeq, ordinal);
    }

    /** The records (new objects on each call for a serialized buffer: any thread may call it). */
    Record[] records() {
        return records != null ? records : RecordCodec.decode(bytes, size);
    }

    /** This buffer with its records as objects: itself, or a copy deserialized from its bytes. */
    RecordBuffer readable() {
        return records != null ? this : new RecordBuffer(records(), size, firstSeq, ordinal);
    }

    /** Sequence number after the last record. */
    long endSeq() {
        return firstSeq + size;
    }
}
