package dev.consistentcut.checkpoint;

import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import dev.consistentcut.message.RecordLedger;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.CRC32C;

/**
 * The binary format of a stored {@link CompletedCheckpoint}. All integers big-endian.
 *
 * <pre>
 * header (16 bytes)
 *   int32  magic      0x43434B50 ("CCKP")
 *   int32  version    1, or 2 when the checkpoint carries the identity of its job
 *   int32  bodyLength number of body bytes that follow the header
 *   int32  checksum   CRC32C of the body bytes
 * body
 *   string job id                                     version 2 only (see {@link #encode(CompletedCheckpoint, String)})
 *   int64  checkpoint id
 *   int32  n, then n x (string source task, int64 offset)                      source offsets
 *   int32  n, then n x (string task, int32 len, len bytes operator state,
 *                      int32 m, m x (string source, int64 offset, int32 times)) task snapshots
 *   int32  n, then n x (string channel, int32 m, m x record)                    channel state
 *   stats: int64 triggerTime, int64 completionTime,
 *          int32 n, n x (string task, int64 startDelay),
 *          int32 n, n x (string task, int64 alignmentDuration),
 *          int64 persistedRecords, int64 persistedBytes, int64 stateBytes
 * string = int32 byte length, then UTF-8 bytes
 * record = string source, int64 offset, int64 key, int64 value
 * </pre>
 *
 * Map entries are written in ascending key order, so equal checkpoints encode to equal bytes.
 * Records within a channel keep their FIFO order. The checksum covers the whole body, and the
 * length in the header lets a truncated file be told from a corrupt one. {@link
 * CheckpointStats#persistedBytes()} and {@link CheckpointStats#stateBytes()} are the sizes of the
 * channel-state and task-snapshot sections in this format ({@link #channelStateSize}, {@link
 * #stateSize}). A whole checkpoint: {@link DirectoryCheckpointStore} now writes incremental
 * ones ({@link IncrementalCodec}, version 5 of this header, and 4 before it) and still reads these. Stateless and
 * thread-safe.
 */
public final class CheckpointCodec {

    public static final int MAGIC = 0x43434B50;
    public static final int VERSION = 1;
    /** The version whose body starts with the job id: a durable job's checkpoints. */
    public static final int VERSION_WITH_JOB = 2;
    /**
     * The version of an incremental checkpoint's private file, this header over {@link
     * IncrementalCodec}'s body: 5, whose references may name a materialisation's file; version 4
     * files (none of those) are still read.
     */
    public static final int VERSION_INCREMENTAL = 5;
    public static final int HEADER_BYTES = 16;

    private CheckpointCodec() {
    }

    /** A decoded checkpoint and the job it belongs to ({@code null} for a version-1 file, which names none). */
    public record Decoded(String jobId, CompletedCheckpoint checkpoint) {
    }

    /** The checkpoint in the format above, version 1 (no job identity). */
    public static byte[] encode(CompletedCheckpoint c) {
        return encode(c, null);
    }

    /**
     * The checkpoint in the format above; with a non-null {@code jobId}, version 2, whose body
     * starts with the job id, so a checkpoint can never be restored into another job.
     */
    public static byte[] encode(CompletedCheckpoint c, String jobId) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream body = new DataOutputStream(bytes);
        try {
            if (jobId != null) {
                writeString(body, jobId);
            }
            body.writeLong(c.id());
            writeOffsets(body, c.sourceOffsets());
            writeSnapshots(body, c.taskSnapshots());
            writeChannelState(body, c.channelState());
            writeStats(body, c.stats());
        } catch (IOException e) {
            throw new UncheckedIOException("writing to memory cannot fail", e);
        }
        return withHeader(MAGIC, jobId == null ? VERSION : VERSION_WITH_JOB, bytes.toByteArray());
    }

    /**
     * Decodes what {@link #encode} wrote.
     *
     * @param where names the bytes' origin (a file name) in the error message
     * @throws CorruptCheckpointException naming {@code where} and the first defect found: "bad
     *     magic", "truncated: expected N bytes, found M", "unsupported version", "checksum
     *     mismatch", "trailing bytes", "bad length field" or "malformed body"
     */
    public static CompletedCheckpoint decode(byte[] bytes, String where) throws CorruptCheckpointException {
        return decodeWithJob(bytes, where).checkpoint();
    }

    /** As {@link #decode}, with the job id a version-2 file carries. */
    public static Decoded decodeWithJob(byte[] bytes, String where) throws CorruptCheckpointException {
        ByteBuffer body = verifiedBody(bytes, where, MAGIC, "CCKP", "a checkpoint file",
                v -> v == VERSION || v == VERSION_WITH_JOB, "versions " + VERSION + " and " + VERSION_WITH_JOB);
        int version = ByteBuffer.wrap(bytes).getInt(4);
        return decodeBody(body, where, in -> {
            String jobId = version == VERSION_WITH_JOB ? in.string() : null;
            CompletedCheckpoint c = in.readCheckpoint();
            in.requireEnd("the statistics");
            return new Decoded(jobId, c);
        });
    }

    /** Reads a body that passed its checksum; {@link #decodeBody} turns what it throws into the defect. */
    @FunctionalInterface
    interface BodyDecoder<T> {
        T decode(BodyReader in);
    }

    /**
     * {@code decoder} applied to {@code body}: a body that ends in the middle of a field, or holds
     * an impossible value, is a "malformed body" {@link CorruptCheckpointException} naming
     * {@code where} and the body byte reached.
     */
    static <T> T decodeBody(ByteBuffer body, String where, BodyDecoder<T> decoder) throws CorruptCheckpointException {
        BodyReader in = new BodyReader(body);
        try {
            return decoder.decode(in);
        } catch (BufferUnderflowException e) {
            throw new CorruptCheckpointException(
                    where, "malformed body: ends in the middle of a field at body byte " + in.buf.position(), e);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new CorruptCheckpointException(
                    where, "malformed body at body byte " + in.buf.position() + ": " + e.getMessage(), e);
        }
    }

    /**
     * The body of a file in this header format (magic, version, body length, CRC32C of the body),
     * once the header is checked against the bytes: the first defect found is thrown, named as
     * {@link #decode} documents.
     */
    static ByteBuffer verifiedBody(byte[] bytes, String where, int magic, String magicName, String what,
            java.util.function.IntPredicate supported, String supportedVersions) throws CorruptCheckpointException {
        int n = bytes.length;
        ByteBuffer buf = ByteBuffer.wrap(bytes);
        if (n >= 4 && buf.getInt(0) != magic) {
            throw new CorruptCheckpointException(where, String.format(
                    "bad magic: expected 0x%08X (\"%s\"), found 0x%08X; not %s", magic, magicName, buf.getInt(0), what));
        }
        if (n < HEADER_BYTES) {
            throw new CorruptCheckpointException(
                    where, "truncated: expected at least " + HEADER_BYTES + " bytes (the header), found " + n);
        }
        int version = buf.getInt(4);
        if (!supported.test(version)) {
            throw new CorruptCheckpointException(where, "unsupported version: " + version
                    + " (this build reads " + supportedVersions + ")");
        }
        int bodyLength = buf.getInt(8);
        if (bodyLength < 0) {
            throw new CorruptCheckpointException(where, "bad length field: " + bodyLength);
        }
        long expected = HEADER_BYTES + (long) bodyLength;
        if (n < expected) {
            throw new CorruptCheckpointException(where, "truncated: expected " + expected + " bytes, found " + n);
        }
        if (n > expected) {
            throw new CorruptCheckpointException(
                    where, "trailing bytes: expected " + expected + " bytes, found " + n);
        }
        int stored = buf.getInt(12);
        int computed = crc32c(bytes, HEADER_BYTES, bodyLength);
        if (stored != computed) {
            throw new CorruptCheckpointException(where, String.format(
                    "checksum mismatch: header says CRC32C 0x%08X, body has 0x%08X", stored, computed));
        }
        return buf.position(HEADER_BYTES).slice();
    }

    /** {@code body} behind a header of this format: magic, {@code version}, length, CRC32C. */
    static byte[] withHeader(int magic, int version, byte[] body) {
        return ByteBuffer.allocate(HEADER_BYTES + body.length)
                .putInt(magic)
                .putInt(version)
                .putInt(body.length)
                .putInt(crc32c(body, 0, body.length))
                .put(body)
                .array();
    }

    /** Bytes the task-snapshot section takes for {@code snapshots}: {@link CheckpointStats#stateBytes()}. */
    public static long stateSize(Map<String, TaskSnapshot> snapshots) {
        // From the sizes the snapshots keep: encoding them would walk every state and ledger whole.
        long size = 4;
        for (Map.Entry<String, TaskSnapshot> e : snapshots.entrySet()) {
            TaskSnapshot s = e.getValue();
            size += 4 + e.getKey().getBytes(StandardCharsets.UTF_8).length
                    + 4 + s.stateSize() + 4 + s.ledgerBytes();
        }
        return size;
    }

    /** Bytes the channel-state section takes: {@link CheckpointStats#persistedBytes()}. */
    public static long channelStateSize(Map<String, List<Record>> channelState) {
        // Counted as writeChannelState writes it, without encoding: the coordinator sizes every
        // unaligned checkpoint's records, and the store encodes them once more anyway.
        long size = 4;
        for (Map.Entry<String, List<Record>> e : channelState.entrySet()) {
            size += 4 + utf8Length(e.getKey()) + 4;
            for (Record r : e.getValue()) {
                size += 4 + utf8Length(r.id().source()) + 3 * Long.BYTES;
            }
        }
        return size;
    }

    /** Bytes {@code s.getBytes(UTF_8)} has, without making them: an unpaired surrogate becomes one {@code '?'}. */
    static int utf8Length(String s) {
        int n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                n += 1;
            } else if (c < 0x800) {
                n += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                n += 4;
                i++;
            } else if (Character.isSurrogate(c)) {
                n += 1;
            } else {
                n += 3;
            }
        }
        return n;
    }

    static int crc32c(byte[] b, int offset, int length) {
        CRC32C crc = new CRC32C();
        crc.update(b, offset, length);
        return (int) crc.getValue();
    }

    // ---------------------------------------------------------------- writing

    static void writeOffsets(DataOutputStream out, Map<String, Long> offsets) throws IOException {
        out.writeInt(offsets.size());
        for (Map.Entry<String, Long> e : new TreeMap<>(offsets).entrySet()) {
            writeString(out, e.getKey());
            out.writeLong(e.getValue());
        }
    }

    private static void writeSnapshots(DataOutputStream out, Map<String, TaskSnapshot> snapshots) throws IOException {
        out.writeInt(snapshots.size());
        for (Map.Entry<String, TaskSnapshot> e : new TreeMap<>(snapshots).entrySet()) {
            writeString(out, e.getKey());
            byte[] state = e.getValue().operatorState();
            out.writeInt(state.length);
            out.write(state);
            Map<RecordId, Integer> processed = new TreeMap<>(e.getValue().processed());
            out.writeInt(processed.size());
            for (Map.Entry<RecordId, Integer> p : processed.entrySet()) {
                writeString(out, p.getKey().source());
                out.writeLong(p.getKey().offset());
                out.writeInt(p.getValue());
            }
        }
    }

    static void writeChannelState(DataOutputStream out, Map<String, List<Record>> channels) throws IOException {
        out.writeInt(channels.size());
        for (Map.Entry<String, List<Record>> e : new TreeMap<>(channels).entrySet()) {
            writeString(out, e.getKey());
            out.writeInt(e.getValue().size());
            for (Record r : e.getValue()) {
                writeString(out, r.id().source());
                out.writeLong(r.id().offset());
                out.writeLong(r.key());
                out.writeLong(r.value());
            }
        }
    }

    static void writeStats(DataOutputStream out, CheckpointStats s) throws IOException {
        out.writeLong(s.triggerTime());
        out.writeLong(s.completionTime());
        writeOffsets(out, s.startDelay());
        writeOffsets(out, s.alignmentDuration());
        out.writeLong(s.persistedRecords());
        out.writeLong(s.persistedBytes());
        out.writeLong(s.stateBytes());
    }

    static void writeString(DataOutputStream out, String s) throws IOException {
        byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(utf8.length);
        out.write(utf8);
    }

    // ---------------------------------------------------------------- reading

    /** Reads a body whose checksum already matched; any inconsistency left is a bug or a forgery. */
    static final class BodyReader {
        final ByteBuffer buf;

        BodyReader(ByteBuffer buf) {
            this.buf = buf;
        }

        CompletedCheckpoint readCheckpoint() {
            long id = buf.getLong();
            Map<String, Long> offsets = readLongMap("source offset");
            Map<String, TaskSnapshot> snapshots = new HashMap<>();
            int tasks = count("task snapshot");
            for (int i = 0; i < tasks; i++) {
                String task = string();
                byte[] state = new byte[count("operator state byte")];
                buf.get(state);
                Map<RecordId, Integer> processed = new RecordLedger();
                int entries = count("processed entry");
                for (int j = 0; j < entries; j++) {
                    putUnique(processed, new RecordId(string(), buf.getLong()), buf.getInt(), "processed entry");
                }
                putUnique(snapshots, task, new TaskSnapshot(state, processed), "task snapshot");
            }
            Map<String, List<Record>> channelState = readChannelState();
            return new CompletedCheckpoint(id, offsets, snapshots, channelState, readStats());
        }

        Map<String, List<Record>> readChannelState() {
            Map<String, List<Record>> channelState = new HashMap<>();
            int channels = count("channel");
            for (int i = 0; i < channels; i++) {
                String channel = string();
                int records = count("record");
                List<Record> list = new ArrayList<>(records);
                for (int j = 0; j < records; j++) {
                    RecordId rid = new RecordId(string(), buf.getLong());
                    list.add(new Record(rid, buf.getLong(), buf.getLong()));
                }
                putUnique(channelState, channel, list, "channel");
            }
            return channelState;
        }

        CheckpointStats readStats() {
            long triggerTime = buf.getLong();
            long completionTime = buf.getLong();
            Map<String, Long> startDelay = readLongMap("start delay");
            Map<String, Long> alignment = readLongMap("alignment duration");
            return new CheckpointStats(triggerTime, completionTime, startDelay, alignment,
                    buf.getLong(), buf.getLong(), buf.getLong());
        }

        Map<String, Long> readLongMap(String what) {
            Map<String, Long> m = new HashMap<>();
            int n = count(what);
            for (int i = 0; i < n; i++) {
                putUnique(m, string(), buf.getLong(), what);
            }
            return m;
        }

        /** Refuses bytes left over after {@code last}, the body's last part. */
        void requireEnd(String last) {
            if (buf.hasRemaining()) {
                throw new IllegalArgumentException(buf.remaining() + " bytes left over after " + last);
            }
        }

        /** A count, checked against the bytes left so that a bad one cannot allocate gigabytes. */
        int count(String what) {
            int n = buf.getInt();
            if (n < 0 || n > buf.remaining()) {
                throw new IllegalArgumentException(
                        what + " count " + n + " impossible with " + buf.remaining() + " bytes left");
            }
            return n;
        }

        String string() {
            byte[] utf8 = new byte[count("string byte")];
            buf.get(utf8);
            return new String(utf8, StandardCharsets.UTF_8);
        }

        static <K, V> void putUnique(Map<K, V> m, K key, V value, String what) {
            if (m.put(key, value) != null) {
                throw new IllegalArgumentException("duplicate " + what + " " + key);
            }
        }
    }
}
