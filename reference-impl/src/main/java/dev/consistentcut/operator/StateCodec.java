package dev.consistentcut.operator;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.TreeMap;

/**
 * Small helpers the shipped operators use to encode their state. Maps are written in key order
 * so that equal states give equal bytes (checkpoints compare state bytes).
 */
final class StateCodec {

    private StateCodec() {
    }

    interface Writer {
        void write(DataOutputStream out) throws IOException;
    }

    interface Reader<T> {
        T read(DataInputStream in) throws IOException;
    }

    static byte[] encode(Writer writer) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            writer.write(out);
        } catch (IOException e) {
            throw new UncheckedIOException("writing to memory cannot fail", e);
        }
        return bytes.toByteArray();
    }

    /** Decodes {@code state}; a short or overlong encoding is an error naming {@code operator}. */
    static <T> T decode(String operator, byte[] state, Reader<T> reader) {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(state));
        try {
            T result = reader.read(in);
            if (in.available() > 0) {
                throw new IllegalArgumentException(operator + ": state has " + in.available()
                        + " unexpected trailing bytes (of " + state.length + ")");
            }
            return result;
        } catch (IOException e) {
            throw new IllegalArgumentException(operator + ": state of " + state.length
                    + " bytes is truncated or malformed: " + e, e);
        }
    }

    static void writeLongMap(DataOutputStream out, Map<Long, Long> map) throws IOException {
        out.writeInt(map.size());
        for (Map.Entry<Long, Long> e : new TreeMap<>(map).entrySet()) {
            out.writeLong(e.getKey());
            out.writeLong(e.getValue());
        }
    }

    static TreeMap<Long, Long> readLongMap(DataInputStream in) throws IOException {
        int size = in.readInt();
        if (size < 0) {
            throw new IOException("negative map size " + size);
        }
        TreeMap<Long, Long> map = new TreeMap<>();
        for (int i = 0; i < size; i++) {
            map.put(in.readLong(), in.readLong());
        }
        return map;
    }

    /** Bytes {@code DataOutputStream.writeUTF} writes for {@code s} after its 2-byte length. */
    static int modifiedUtf8Length(String s) {
        int n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            n += c >= 0x0001 && c <= 0x007F ? 1 : c <= 0x07FF ? 2 : 3;
        }
        return n;
    }
}
