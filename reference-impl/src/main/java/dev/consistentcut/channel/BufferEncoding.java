package dev.consistentcut.channel;

import dev.consistentcut.message.Record;

/**
 * How a channel's network buffers carry their records from the sender's thread to the
 * receiver's. Stateless; chosen per channel when it is made.
 */
public enum BufferEncoding {

    /**
     * The sender's record objects themselves: nothing is copied or serialized. The cheapest
     * hand-over; not what a distributed engine can do.
     */
    REFERENCES {
        @Override
        RecordBuffer seal(Record[] records, int size, long firstSeq, long ordinal) {
            return new RecordBuffer(records, size, firstSeq, ordinal);
        }
    },

    /**
     * The records serialized into bytes when the sender hands the buffer over, and deserialized
     * into new objects when the receiver starts reading it ({@link RecordCodec}), as Flink's
     * network stack does between tasks that are not chained. An overtaking barrier's sender reads
     * the records it overtook from the same bytes.
     */
    SERIALIZED {
        @Override
        RecordBuffer seal(Record[] records, int size, long firstSeq, long ordinal) {
            return RecordBuffer.serialized(RecordCodec.encode(records, size), size, firstSeq, ordinal);
        }
    };

    /** The buffer of {@code records[0..size)} as it is handed over; {@code records} is not used after. */
    abstract RecordBuffer seal(Record[] records, int size, long firstSeq, long ordinal);
}
