package dev.consistentcut.checkpoint;

import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import dev.consistentcut.message.RecordLedger;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The two file formats of an incremental checkpoint (spec/incremental/IncrementalCheckpointStore.tla):
 * a checkpoint's private file (its metadata, {@link CheckpointCodec}'s header with version
 * {@value #VERSION}) and the shared segment files it references. Header of both: int32 magic,
 * int32 version, int32 body length, int32 CRC32C of the body, as {@link CheckpointCodec}.
 *
 * <pre>
 * private file, magic "CCKP", version 5 (version 4: the same, without the second kind of ref)
 *   byte   1 if a job id follows, else 0; string job id
 *   int64  checkpoint id
 *   source offsets                                               as CheckpointCodec
 *   int32  n, then n x (string task, int32 stateSize, int32 ledgerEntries, int64 ledgerBytes,
 *                       string state merge ("" for a whole-state chain),
 *                       refs state segments, base first, refs ledger segments, base first)
 *   channel state, stats                                          as CheckpointCodec
 * refs   = int32 n, n x ref
 * ref    = int64 id of the checkpoint that uploaded the segment, int32 index of the segment in
 *          that checkpoint's shared file of this task, {@code shared-<id>-<task>.seg}
 *        | int64 minus the id of the checkpoint that took over materialisation k's staged upload,
 *          int64 k, int32 index of the segment in {@code shared-<id>-<task>~m<k>.seg}
 *
 * shared file, magic "CCKS", version 1
 *   string task, int64 id of the checkpoint that uploaded it (0 in a {@code ~m<k>} file: a
 *          materialisation wrote it before a checkpoint took it over)
 *   int32  n, n x segment
 * segment = byte 0, int32 len, len bytes of operator state
 *         | byte 2, int32 k, k x source                                a ledger segment
 *         | byte 1, int32 m, m x (string source, int64 offset, int32 times)   one as written before; still read
 * source  = string source, int64 first, int32 w, w x int64 bits   (bit b of word i set: offset
 *           first + 64 i + b counted once), int32 m, m x (int64 offset, int32 times)   the others
 * </pre>
 *
 * A ledger segment holds one bit per offset between its first and last record counted once, not
 * a dozen bytes per record, unless the list is smaller (a sparse source: then w is 0 and every
 * record is in the list).
 *
 * <p>Stateless and thread-safe.
 */
final class IncrementalCodec {

    /** The private file's version in {@link CheckpointCodec}'s header: its snapshots are references. */
    static final int VERSION = CheckpointCodec.VERSION_INCREMENTAL;
    /** The previous version: its references are all {@code shared-<id>-<task>.seg} ones; still read. */
    static final int VERSION_WITHOUT_MATERIALISED = 4;
    static final int SHARED_MAGIC = 0x43434B53;
    static final int SHARED_VERSION = 1;

    private static final byte STATE = 0;
    /** A ledger segment as a list of entries: no longer written, still read. */
    private static final byte LEDGER_LIST = 1;
    private static final byte LEDGER = 2;

    private IncrementalCodec() {
    }

    /** Segment {@code index} of shared file {@code file}. */
    record SegmentRef(String file, int index) {
    }

    /** A task snapshot as its private file holds it: sizes, the state's merge, its segments by reference. */
    record TaskRefs(int stateSize, int ledgerEntries, long ledgerBytes, String merge,
                    List<SegmentRef> state, List<SegmentRef> ledger) {
    }

    /** A decoded private file. */
    record Metadata(String jobId, long id, Map<String, Long> offsets, Map<String, TaskRefs> tasks,
                    Map<String, List<Record>> channelState, CheckpointStats stats) {

        /** The shared files this checkpoint references, by name. */
        Set<String> sharedFiles() {
            Set<String> files = new TreeSet<>();
            tasks.values().forEach(t -> {
                t.state().forEach(r -> files.add(r.file()));
                t.ledger().forEach(r -> files.add(r.file()));
            });
            return files;
        }
    }

    /** Whether {@code bytes} are a private file of this format (the header's version; nothing verified). */
    static boolean isIncremental(byte[] bytes) {
        return bytes.length >= 8 && ByteBuffer.wrap(bytes).getInt(0) == CheckpointCodec.MAGIC
                && readable(ByteBuffer.wrap(bytes).getInt(4));
    }

    private static boolean readable(int version) {
        return version == VERSION || version == VERSION_WITHOUT_MATERIALISED;
    }

    static byte[] encodeMetadata(CompletedCheckpoint c, String jobId, Map<String, TaskRefs> tasks) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        try {
            out.writeByte(jobId == null ? 0 : 1);
            if (jobId != null) {
                CheckpointCodec.writeString(out, jobId);
            }
            out.writeLong(c.id());
            CheckpointCodec.writeOffsets(out, c.sourceOffsets());
            out.writeInt(tasks.size());
            for (Map.Entry<String, TaskRefs> e : new TreeMap<>(tasks).entrySet()) {
                TaskRefs t = e.getValue();
                CheckpointCodec.writeString(out, e.getKey());
                out.writeInt(t.stateSize());
                out.writeInt(t.ledgerEntries());
                out.writeLong(t.ledgerBytes());
                CheckpointCodec.writeString(out, t.merge());
                writeRefs(out, e.getKey(), t.state());
                writeRefs(out, e.getKey(), t.ledger());
            }
            CheckpointCodec.writeChannelState(out, c.channelState());
            CheckpointCodec.writeStats(out, c.stats());
        } catch (IOException e) {
            throw new UncheckedIOException("writing to memory cannot fail", e);
        }
        return CheckpointCodec.withHeader(CheckpointCodec.MAGIC, VERSION, bytes.toByteArray());
    }

    static Metadata decodeMetadata(byte[] bytes, String where) throws CorruptCheckpointException {
        ByteBuffer body = CheckpointCodec.verifiedBody(bytes, where, CheckpointCodec.MAGIC, "CCKP",
                "a checkpoint file", IncrementalCodec::readable,
                "version " + VERSION_WITHOUT_MATERIALISED + " or " + VERSION + " here");
        return CheckpointCodec.decodeBody(body, where, in -> {
            String jobId = in.buf.get() == 1 ? in.string() : null;
            long id = in.buf.getLong();
            Map<String, Long> offsets = in.readLongMap("source offset");
            Map<String, TaskRefs> tasks = new HashMap<>();
            int n = in.count("task snapshot");
            for (int i = 0; i < n; i++) {
                String task = in.string();
                TaskRefs t = new TaskRefs(in.buf.getInt(), in.buf.getInt(), in.buf.getLong(), in.string(),
                        readRefs(in, task), readRefs(in, task));
                if (t.state().isEmpty() || t.ledger().isEmpty()) {
                    throw new IllegalArgumentException("task " + task + " has an empty changelog");
                }
                CheckpointCodec.BodyReader.putUnique(tasks, task, t, "task snapshot");
            }
            Map<String, List<Record>> channels = in.readChannelState();
            CheckpointStats stats = in.readStats();
            in.requireEnd("the statistics");
            return new Metadata(jobId, id, offsets, tasks, channels, stats);
        });
    }

    /**
     * A ledger segment's sources, by source and then offset (so that equal ledgers encode to equal
     * bytes). Per source its offsets counted once as bits from the first of them, where bits take
     * less room than a list, and every other entry as (offset, count); written a word at a time
     * from a {@link RecordLedger} (a materialised ledger holds every record a task processed).
     */
    private static void writeLedger(DataOutputStream out, Map<RecordId, Integer> ledger) throws IOException {
        RecordLedger l = ledger instanceof RecordLedger r ? r : new RecordLedger(ledger);
        List<RecordLedger.SourceEntries> sources = l.sources();
        out.writeInt(sources.size());
        for (RecordLedger.SourceEntries source : sources) {
            int once = source.onceCount();
            long first = source.firstOnce();
            // Bits only where they are smaller than the list (and their word count fits an int).
            long words = once == 0 ? 0 : (source.lastOnce() - first) / 64 + 1;
            boolean bits = once > 0 && words <= Integer.MAX_VALUE && words * 8 < once * 12L;
            CheckpointCodec.writeString(out, source.source());
            out.writeLong(bits ? first : 0);
            out.writeInt(bits ? (int) words : 0);
            for (long k = 0; bits && k < words; k++) {
                out.writeLong(source.onceWord(first + 64 * k));
            }
            java.util.NavigableMap<Long, Integer> others = source.others();
            out.writeInt(others.size() + (bits ? 0 : once));
            // The others, merged in offset order with the offsets counted once when those are not bits.
            long next = bits ? -1 : first;
            for (Map.Entry<Long, Integer> e : others.entrySet()) {
                for (; next >= 0 && next < e.getKey(); next = source.nextOnce(next + 1)) {
                    out.writeLong(next);
                    out.writeInt(1);
                }
                out.writeLong(e.getKey());
                out.writeInt(e.getValue());
            }
            for (; next >= 0; next = source.nextOnce(next + 1)) {
                out.writeLong(next);
                out.writeInt(1);
            }
        }
    }

    /** A ledger segment written by {@link #writeLedger}; a record twice in it is refused. */
    private static RecordLedger readLedger(CheckpointCodec.BodyReader in) {
        RecordLedger ledger = new RecordLedger();
        int sources = in.count("ledger source");
        for (int k = 0; k < sources; k++) {
            String source = in.string();
            long first = in.buf.getLong();
            int words = in.count("ledger word");
            if (first < 0 || first > Long.MAX_VALUE - 64L * words) {
                throw new IllegalArgumentException("ledger bits of source " + source + " start at offset " + first
                        + " and span " + words + " words: beyond the offsets a record can have");
            }
            for (int i = 0; i < words; i++) {
                long w = in.buf.getLong();
                while (w != 0) {
                    long offset = first + 64L * i + Long.numberOfTrailingZeros(w);
                    CheckpointCodec.BodyReader.putUnique(ledger, new RecordId(source, offset), 1, "processed entry");
                    w &= w - 1;
                }
            }
            int others = in.count("processed entry");
            for (int j = 0; j < others; j++) {
                CheckpointCodec.BodyReader.putUnique(ledger, new RecordId(source, in.buf.getLong()), in.buf.getInt(),
                        "processed entry");
            }
        }
        return ledger;
    }

    /** A shared file of {@code task}'s segments uploaded by checkpoint {@code id}: byte[] states, ledger maps. */
    @SuppressWarnings("unchecked")
    static byte[] encodeShared(String task, long id, List<Object> segments) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        try {
            CheckpointCodec.writeString(out, task);
            out.writeLong(id);
            out.writeInt(segments.size());
            for (Object s : segments) {
                if (s instanceof byte[] state) {
                    out.writeByte(STATE);
                    out.writeInt(state.length);
                    out.write(state);
                } else {
                    out.writeByte(LEDGER);
                    writeLedger(out, (Map<RecordId, Integer>) s);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("writing to memory cannot fail", e);
        }
        return CheckpointCodec.withHeader(SHARED_MAGIC, SHARED_VERSION, bytes.toByteArray());
    }

    /**
     * The segments of a shared file, checked to be {@code task}'s as uploaded by checkpoint
     * {@code id} (what its name says): byte[] for state, read-only maps for the ledger.
     */
    static List<Object> decodeShared(byte[] bytes, String where, String task, long id)
            throws CorruptCheckpointException {
        ByteBuffer body = CheckpointCodec.verifiedBody(bytes, where, SHARED_MAGIC, "CCKS",
                "a shared segment file", v -> v == SHARED_VERSION, "version " + SHARED_VERSION);
        return CheckpointCodec.decodeBody(body, where, in -> {
            String owner = in.string();
            long uploader = in.buf.getLong();
            if (!owner.equals(task) || uploader != id) {
                throw new IllegalArgumentException("holds task " + owner + " of checkpoint " + uploader
                        + ", but its name says task " + task + " of checkpoint " + id);
            }
            int n = in.count("segment");
            List<Object> segments = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                byte kind = in.buf.get();
                if (kind == STATE) {
                    byte[] state = new byte[in.count("operator state byte")];
                    in.buf.get(state);
                    segments.add(state);
                } else if (kind == LEDGER) {
                    segments.add(readLedger(in).readOnly());
                } else if (kind == LEDGER_LIST) {
                    int entries = in.count("processed entry");
                    RecordLedger ledger = new RecordLedger();
                    for (int j = 0; j < entries; j++) {
                        CheckpointCodec.BodyReader.putUnique(ledger, new RecordId(in.string(), in.buf.getLong()),
                                in.buf.getInt(), "processed entry");
                    }
                    segments.add(ledger.readOnly());
                } else {
                    throw new IllegalArgumentException("unknown segment kind " + kind);
                }
            }
            in.requireEnd("the segments");
            return segments;
        });
    }

    /** {@code refs}, each in a shared file of {@code task}: the file is named by its uploader alone. */
    private static void writeRefs(DataOutputStream out, String task, List<SegmentRef> refs) throws IOException {
        out.writeInt(refs.size());
        for (SegmentRef r : refs) {
            long uploader = SharedSegmentFiles.uploader(r.file());
            long materialisation = SharedSegmentFiles.materialisation(r.file());
            if (!r.file().equals(materialisation == 0 ? SharedSegmentFiles.name(uploader, task)
                    : SharedSegmentFiles.materialisedName(uploader, task, materialisation))) {
                throw new IllegalArgumentException("task " + task + " references " + r.file() + ", not a file of its own");
            }
            if (materialisation == 0) {
                out.writeLong(uploader);
            } else {
                out.writeLong(-uploader);
                out.writeLong(materialisation);
            }
            out.writeInt(r.index());
        }
    }

    private static List<SegmentRef> readRefs(CheckpointCodec.BodyReader in, String task) {
        int n = in.count("segment reference");
        List<SegmentRef> refs = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            long uploader = in.buf.getLong();
            if (uploader < 0) { // a staged upload of a materialisation, taken over by checkpoint -uploader
                long materialisation = in.buf.getLong();
                if (uploader == Long.MIN_VALUE || materialisation < 1) {
                    throw new IllegalArgumentException("segment reference to checkpoint " + uploader
                            + ", materialisation " + materialisation);
                }
                refs.add(new SegmentRef(SharedSegmentFiles.materialisedName(-uploader, task, materialisation),
                        in.buf.getInt()));
                continue;
            }
            if (uploader < 1) {
                throw new IllegalArgumentException("segment reference to checkpoint " + uploader);
            }
            refs.add(new SegmentRef(SharedSegmentFiles.name(uploader, task), in.buf.getInt()));
        }
        return refs;
    }
}
