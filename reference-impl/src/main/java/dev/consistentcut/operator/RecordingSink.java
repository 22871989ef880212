package dev.consistentcut.operator;

import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A sink that records every record it receives, in order, as its state: after a recovery it holds
 * exactly what the restored checkpoint says it had received, plus what it received since. So at the
 * end of an exactly-once run it holds every record exactly as often as it has routes to it.
 * It passes each record on unchanged (a sink normally has no out-edges).
 */
public final class RecordingSink implements Operator, ChangelogState, KeyGroupedState {

    private final long delayNanosPerRecord;
    private List<Record> received = new ArrayList<>();
    /** How many of {@link #received} the previous {@link #snapshotChanges} (or restore) covered. */
    private int sealed;
    /** {@link #snapshotState()}'s length, kept as records come. */
    private long stateSize = 4;

    public RecordingSink() {
        this(0);
    }

    /** A slow sink: the threaded runtime spends {@code delayNanosPerRecord} on each record. */
    public RecordingSink(long delayNanosPerRecord) {
        if (delayNanosPerRecord < 0) {
            throw new IllegalArgumentException("delayNanosPerRecord must be >= 0, got " + delayNanosPerRecord);
        }
        this.delayNanosPerRecord = delayNanosPerRecord;
    }

    @Override
    public Record process(int input, Record record) {
        received.add(record);
        stateSize += encodedSize(record);
        return record;
    }

    /** What this sink has received, in order (read-only view). */
    public List<Record> received() {
        return Collections.unmodifiableList(received);
    }

    @Override
    public long delayNanosPerRecord() {
        return delayNanosPerRecord;
    }

    @Override
    public byte[] snapshotState() {
        return encode(received);
    }

    /** The records received since the previous call, encoded as a whole state of them alone. */
    @Override
    public byte[] snapshotChanges() {
        byte[] changes = encode(received.subList(sealed, received.size()));
        sealed = received.size();
        return changes;
    }

    @Override
    public long stateSize() {
        return stateSize;
    }

    /**
     * The state is a list of appends: the segments' records, concatenated in order. Done on the
     * encoded bytes (each segment checked by walking its entries, none decoded): a materialisation
     * merges the sink's whole state, and decoding it into objects made every one of them a
     * short-lived allocation that the young collector had to copy while the tasks waited.
     */
    @Override
    public byte[] mergeState(List<byte[]> segments) {
        long records = 0;
        long bytes = 4;
        for (byte[] segment : segments) {
            records += checkedRecordCount(segment);
            bytes += segment.length - 4;
        }
        if (records > Integer.MAX_VALUE || bytes > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("RecordingSink: merged state of " + records + " records ("
                    + bytes + " bytes) is too large for one state");
        }
        java.nio.ByteBuffer merged = java.nio.ByteBuffer.allocate((int) bytes).putInt((int) records);
        for (byte[] segment : segments) {
            merged.put(segment, 4, segment.length - 4);
        }
        return merged.array();
    }

    /** The number of records {@code segment} encodes, after checking that it is exactly {@link #encode}'s form. */
    private static int checkedRecordCount(byte[] segment) {
        return StateCodec.decode("RecordingSink", segment, in -> {
            int size = in.readInt();
            if (size < 0) {
                throw new java.io.IOException("negative record count " + size);
            }
            for (int i = 0; i < size; i++) {
                int sourceLength = in.readUnsignedShort();
                in.skipNBytes(sourceLength + 3L * 8);
            }
            return size;
        });
    }

    @Override
    public void restoreState(byte[] state) {
        received = decode(state);
        sealed = received.size();
        stateSize = 4;
        received.forEach(r -> stateSize += encodedSize(r));
    }

    /** The received records whose keys {@code keys} accepts, in the order received. */
    @Override
    public byte[] selectKeys(byte[] state, java.util.function.LongPredicate keys) {
        return encode(decode(state).stream().filter(r -> keys.test(r.key())).toList());
    }

    /** The parts' records, part after part (each part keeps its order: the order per key). */
    @Override
    public byte[] mergeParts(List<byte[]> parts) {
        return mergeState(parts);
    }

    private static byte[] encode(List<Record> records) {
        return StateCodec.encode(out -> {
            out.writeInt(records.size());
            for (Record r : records) {
                out.writeUTF(r.id().source());
                out.writeLong(r.id().offset());
                out.writeLong(r.key());
                out.writeLong(r.value());
            }
        });
    }

    private static List<Record> decode(byte[] state) {
        return StateCodec.decode("RecordingSink", state, in -> {
            int size = in.readInt();
            if (size < 0) {
                throw new java.io.IOException("negative record count " + size);
            }
            List<Record> list = new ArrayList<>(Math.min(size, 1 << 16));
            for (int i = 0; i < size; i++) {
                list.add(new Record(new RecordId(in.readUTF(), in.readLong()), in.readLong(), in.readLong()));
            }
            return list;
        });
    }

    private static long encodedSize(Record r) {
        return 2 + StateCodec.modifiedUtf8Length(r.id().source()) + 3 * 8;
    }
}
