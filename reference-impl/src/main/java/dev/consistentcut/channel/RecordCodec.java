package dev.consistentcut.channel;

import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The binary form of a network buffer's records, as a serializing engine puts them on the wire
 * (Flink serializes every record into its network buffers). A buffer's bytes: the number of
 * distinct source names, each name (length, UTF-8), then per record the index of its source name
 * and its offset, key and value (8 bytes each, big-endian). Names are written once per buffer:
 * a buffer's records come from few sources, and a name per record would be most of the bytes.
 * Stateless.
 */
final class RecordCodec {

    /** Big-endian views of a byte array: one bounds check and one store or load per field. */
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

    private RecordCodec() {
    }

    /** The bytes of {@code records[0..size)}. */
    static byte[] encode(Record[] records, int size) {
        String[] names = new String[4];
        int nameCount = 0;
        int[] nameOf = new int[size];
        int nameBytes = 0;
        byte[][] encodedNames = new byte[4][];
        for (int i = 0; i < size; i++) {
            String source = records[i].id().source();
            int n = 0;
            while (n < nameCount && !names[n].equals(source)) {
                n++;
            }
            if (n == nameCount) {
                if (nameCount == names.length) {
                    names = Arrays.copyOf(names, nameCount * 2);
                    encodedNames = Arrays.copyOf(encodedNames, nameCount * 2);
                }
                names[nameCount] = source;
                encodedNames[nameCount] = source.getBytes(StandardCharsets.UTF_8);
                nameBytes += 4 + encodedNames[nameCount].length;
                nameCount++;
            }
            nameOf[i] = n;
        }
        byte[] out = new byte[4 + nameBytes + size * (4 + 3 * Long.BYTES)];
        int p = putInt(out, 0, nameCount);
        for (int n = 0; n < nameCount; n++) {
            p = putInt(out, p, encodedNames[n].length);
            System.arraycopy(encodedNames[n], 0, out, p, encodedNames[n].length);
            p += encodedNames[n].length;
        }
        for (int i = 0; i < size; i++) {
            Record r = records[i];
            p = putInt(out, p, nameOf[i]);
            p = putLong(out, p, r.id().offset());
            p = putLong(out, p, r.key());
            p = putLong(out, p, r.value());
        }
        return out;
    }

    /**
     * The {@code size} records of {@code bytes}, new objects.
     *
     * @throws IllegalArgumentException if {@code bytes} is not the encoding of {@code size} records
     */
    static Record[] decode(byte[] bytes, int size) {
        try {
            int nameCount = getInt(bytes, 0);
            if (nameCount < 0 || nameCount > (bytes.length - 4) / 4) {
                throw new IllegalArgumentException("not the encoding of " + size + " records: " + nameCount
                        + " source names in " + bytes.length + " bytes");
            }
            int p = 4;
            String[] names = new String[nameCount];
            for (int n = 0; n < nameCount; n++) {
                int length = getInt(bytes, p);
                p += 4;
                if (length < 0 || length > bytes.length - p) {
                    throw new IndexOutOfBoundsException("a name of " + length + " bytes at " + p + " of " + bytes.length);
                }
                names[n] = new String(bytes, p, length, StandardCharsets.UTF_8);
                p += length;
            }
            int recordBytes = 4 + 3 * Long.BYTES;
            if (bytes.length - p != (long) size * recordBytes) {
                throw new IllegalArgumentException("not the encoding of " + size + " records: " + (bytes.length - p)
                        + " bytes of records after the names, not " + (long) size * recordBytes);
            }
            Record[] out = new Record[size];
            for (int i = 0; i < size; i++) {
                String source = names[getInt(bytes, p)];
                long offset = getLong(bytes, p + 4);
                long key = getLong(bytes, p + 12);
                long value = getLong(bytes, p + 20);
                p += recordBytes;
                out[i] = new Record(new RecordId(source, offset), key, value);
            }
            return out;
        } catch (IndexOutOfBoundsException | NegativeArraySizeException e) {
            throw new IllegalArgumentException("not the encoding of " + size + " records: " + e.getMessage(), e);
        }
    }

    private static int putInt(byte[] b, int p, int v) {
        INT.set(b, p, v);
        return p + 4;
    }

    private static int putLong(byte[] b, int p, long v) {
        LONG.set(b, p, v);
        return p + 8;
    }

    /** The view checks the bounds itself (an {@link IndexOutOfBoundsException}, which decode reports). */
    private static int getInt(byte[] b, int p) {
        return (int) INT.get(b, p);
    }

    private static long getLong(byte[] b, int p) {
        return (long) LONG.get(b, p);
    }
}
