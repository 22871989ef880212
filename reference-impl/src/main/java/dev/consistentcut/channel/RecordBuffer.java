package dev.consistentcut.channel;

import dev.consistentcut.message.Record;

/**
 * A network buffer: up to a channel's buffer size of records, handed from the sender to the
 * receiver as one unit (Flink's {@code Buffer}). Filled by the sender while it is open; never
 * written again once handed over, so the receiver (and the sender, for an overtaking barrier's
 * persisted records) may read it without a lock. {@code firstSeq} is the channel's sequence
 * number of its first record (records are numbered 0, 1, ... per channel since the last restore).
 */
final class RecordBuffer {

    final Record[] records;
    final int size;
    final long firstSeq;
    /** 0, 1, ... in hand-over order since the last restore: the receiver releases them in this order. */
    final long ordinal;

    RecordBuffer(Record[] records, int size, long firstSeq, long ordinal) {
        this.records = records;
        this.size = size;
        this.firstSeq = firstSeq;
        this.ordinal = ordinal;
    }

    /** Sequence number after the last record. */
    long endSeq() {
        return firstSeq + size;
    }
}
