package dev.consistentcut.checkpoint;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.message.RecordId;
import dev.consistentcut.message.RecordLedger;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The two incremental file formats read back what was written, and refuse what was not written
 * by them: another version, another task or uploader, and bytes left over inside a body whose
 * checksum is right (a writer's bug, not a torn write).
 */
class IncrementalCodecTest {

    private static final String TASK = "count";

    private static Map<RecordId, Integer> ledger(int entries) {
        Map<RecordId, Integer> m = new HashMap<>();
        for (int i = 0; i < entries; i++) {
            m.put(new RecordId("src-" + (i % 3), i), i % 5 + 1);
        }
        return m;
    }

    private static byte[] body(byte[] file) {
        return Arrays.copyOfRange(file, CheckpointCodec.HEADER_BYTES, file.length);
    }

    private static byte[] withExtraByte(byte[] file) {
        byte[] body = Arrays.copyOf(body(file), body(file).length + 1);
        return CheckpointCodec.withHeader(ByteBuffer.wrap(file).getInt(0), ByteBuffer.wrap(file).getInt(4), body);
    }

    private static String sharedDefect(byte[] bytes, String task, long id) {
        return assertThrows(CorruptCheckpointException.class,
                () -> IncrementalCodec.decodeShared(bytes, "shared.seg", task, id)).defect();
    }

    private static String metadataDefect(byte[] bytes) {
        return assertThrows(CorruptCheckpointException.class,
                () -> IncrementalCodec.decodeMetadata(bytes, "private.ckpt")).defect();
    }

    private static byte[] privateFile() {
        IncrementalCodec.SegmentRef state = new IncrementalCodec.SegmentRef(SharedSegmentFiles.name(2, TASK), 0);
        IncrementalCodec.SegmentRef ledger = new IncrementalCodec.SegmentRef(SharedSegmentFiles.name(3, TASK), 1);
        IncrementalCodec.TaskRefs refs = new IncrementalCodec.TaskRefs(7, 2, 40, "", List.of(state), List.of(ledger));
        return IncrementalCodec.encodeMetadata(SampleCheckpoints.sample(3), "job-1", Map.of(TASK, refs));
    }

    @Test
    void aSharedFileReadsBackItsSegments() throws CorruptCheckpointException {
        Map<RecordId, Integer> big = ledger(1_000);
        List<Object> segments = List.of(new byte[] {1, -2, 3}, ledger(0), big, new byte[0]);
        List<Object> back = IncrementalCodec.decodeShared(
                IncrementalCodec.encodeShared(TASK, 4, segments), "shared.seg", TASK, 4);
        assertEquals(4, back.size());
        assertArrayEquals(new byte[] {1, -2, 3}, (byte[]) back.get(0));
        assertEquals(Map.of(), back.get(1));
        assertEquals(big, back.get(2));
        assertArrayEquals(new byte[0], (byte[]) back.get(3));
    }

    /**
     * A ledger segment keeps one bit per offset for the records counted once: dense and sparse
     * sources, counts above one, an offset beyond what a bit can index, and a ledger that is not
     * in record-id order all read back as written, and a dense ledger takes about a bit per record.
     */
    @Test
    void aLedgerSegmentReadsBackAndTakesABitPerRecordCountedOnce() throws CorruptCheckpointException {
        Map<RecordId, Integer> dense = new HashMap<>();
        for (int i = 0; i < 100_000; i += 2) {
            dense.put(new RecordId("dense", 1_000 + i), i % 1_000 == 0 ? 3 : 1);
        }
        dense.put(new RecordId("sparse", 5), 1);
        dense.put(new RecordId("sparse", 1L << 40), 1);
        dense.put(new RecordId("far", Long.MAX_VALUE), 2);
        byte[] file = IncrementalCodec.encodeShared(TASK, 4, List.of(dense));
        assertEquals(List.of(dense), IncrementalCodec.decodeShared(file, "shared.seg", TASK, 4));
        assertTrue(file.length < 100_000 / 8 + 100 * 12 + 200, "bytes: " + file.length);
    }

    /**
     * Random ledgers (counts above one, removed entries, offsets beyond a bit's reach, bits and
     * lists both) read back as written, and a ledger encodes to the same bytes whichever map holds it.
     */
    @Test
    void randomLedgerSegmentsReadBackAndEncodeTheSameFromAnyMap() throws CorruptCheckpointException {
        for (long seed = 1; seed <= 50; seed++) {
            java.util.Random random = new java.util.Random(seed);
            RecordLedger ledger = new RecordLedger();
            int n = random.nextInt(2_000);
            int spread = 1 + random.nextInt(50_000);
            for (int i = 0; i < n; i++) {
                RecordId id = new RecordId("s" + random.nextInt(3),
                        random.nextInt(40) == 0 ? Long.MAX_VALUE - random.nextInt(2) : random.nextInt(spread));
                ledger.put(id, random.nextInt(8) == 0 ? 2 : 1);
                if (random.nextInt(20) == 0) {
                    ledger.remove(id);
                }
            }
            byte[] file = IncrementalCodec.encodeShared(TASK, 4, List.of(ledger.readOnly()));
            assertEquals(List.of(ledger), IncrementalCodec.decodeShared(file, "shared.seg", TASK, 4), "seed " + seed);
            assertArrayEquals(file, IncrementalCodec.encodeShared(TASK, 4, List.of(new HashMap<>(ledger))), "seed " + seed);
        }
    }

    /** A ledger segment written as a list of entries, as the store wrote them before, is still read. */
    @Test
    void aLedgerSegmentWrittenAsAListIsStillRead() throws CorruptCheckpointException, java.io.IOException {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        java.io.DataOutputStream out = new java.io.DataOutputStream(bytes);
        CheckpointCodec.writeString(out, TASK);
        out.writeLong(4);
        out.writeInt(1);
        out.writeByte(1);
        out.writeInt(2);
        for (long offset : new long[] {3, 9}) {
            CheckpointCodec.writeString(out, "s");
            out.writeLong(offset);
            out.writeInt(offset == 3 ? 1 : 2);
        }
        byte[] file = CheckpointCodec.withHeader(IncrementalCodec.SHARED_MAGIC, IncrementalCodec.SHARED_VERSION,
                bytes.toByteArray());
        assertEquals(List.of(Map.of(new RecordId("s", 3), 1, new RecordId("s", 9), 2)),
                IncrementalCodec.decodeShared(file, "shared.seg", TASK, 4));
    }

    /** A record twice in a ledger segment (a source written twice) is refused, not counted once. */
    @Test
    void aLedgerSegmentWithARecordTwiceIsRefused() {
        byte[] once = body(IncrementalCodec.encodeShared(TASK, 4, List.of(Map.of(new RecordId("s", 3), 1))));
        // body: task, uploader, segment count, kind, source count, then the one source: repeat it
        int sourceStart = 4 + TASK.length() + 8 + 4 + 1 + 4;
        byte[] source = Arrays.copyOfRange(once, sourceStart, once.length);
        ByteBuffer twice = ByteBuffer.allocate(once.length + source.length);
        twice.put(once, 0, sourceStart - 4).putInt(2).put(source).put(source);
        byte[] file = CheckpointCodec.withHeader(IncrementalCodec.SHARED_MAGIC, IncrementalCodec.SHARED_VERSION,
                twice.array());
        assertTrue(sharedDefect(file, TASK, 4).contains("duplicate processed entry s@3"), sharedDefect(file, TASK, 4));
    }

    @Test
    void aSharedFileOfAnotherTaskUploaderOrVersionIsRefused() {
        byte[] good = IncrementalCodec.encodeShared(TASK, 4, List.of(new byte[] {1}));
        assertTrue(sharedDefect(good, "sink", 4).contains("but its name says task sink of checkpoint 4"));
        assertTrue(sharedDefect(good, TASK, 5).contains("but its name says task count of checkpoint 5"));
        byte[] version2 = CheckpointCodec.withHeader(IncrementalCodec.SHARED_MAGIC, 2, body(good));
        assertEquals("unsupported version: 2 (this build reads version 1)", sharedDefect(version2, TASK, 4));
    }

    @Test
    void aSharedFileWithBytesLeftOverInItsBodyIsRefused() {
        byte[] good = IncrementalCodec.encodeShared(TASK, 4, List.of(new byte[] {1}, ledger(3)));
        String defect = sharedDefect(withExtraByte(good), TASK, 4);
        assertTrue(defect.endsWith("1 bytes left over after the segments"), defect);
    }

    @Test
    void aPrivateFileReadsBackItsReferences() throws CorruptCheckpointException {
        byte[] bytes = privateFile();
        assertTrue(IncrementalCodec.isIncremental(bytes));
        IncrementalCodec.Metadata m = IncrementalCodec.decodeMetadata(bytes, "private.ckpt");
        assertEquals("job-1", m.jobId());
        assertEquals(3, m.id());
        assertEquals(SampleCheckpoints.sample(3).sourceOffsets(), m.offsets());
        assertEquals(new IncrementalCodec.TaskRefs(7, 2, 40, "",
                List.of(new IncrementalCodec.SegmentRef(SharedSegmentFiles.name(2, TASK), 0)),
                List.of(new IncrementalCodec.SegmentRef(SharedSegmentFiles.name(3, TASK), 1))), m.tasks().get(TASK));
        assertEquals(Set.of(SharedSegmentFiles.name(2, TASK), SharedSegmentFiles.name(3, TASK)), m.sharedFiles(),
                "the files of the state's and of the ledger's segments");
    }

    @Test
    void aPrivateFileWithBytesLeftOverInItsBodyIsRefused() {
        String defect = metadataDefect(withExtraByte(privateFile()));
        assertTrue(defect.endsWith("1 bytes left over after the statistics"), defect);
    }

    @Test
    void aReferenceToAMaterialisationsFileReadsBackAndAVersion4FileIsStillRead() throws CorruptCheckpointException {
        IncrementalCodec.SegmentRef merged = new IncrementalCodec.SegmentRef(
                SharedSegmentFiles.materialisedName(5, TASK, 12), 1);
        IncrementalCodec.SegmentRef later = new IncrementalCodec.SegmentRef(SharedSegmentFiles.name(4, TASK), 0);
        IncrementalCodec.TaskRefs refs = new IncrementalCodec.TaskRefs(7, 2, 40, "", List.of(merged, later), List.of(merged));
        byte[] bytes = IncrementalCodec.encodeMetadata(SampleCheckpoints.sample(5), "job-1", Map.of(TASK, refs));
        assertEquals(refs, IncrementalCodec.decodeMetadata(bytes, "private.ckpt").tasks().get(TASK));
        assertEquals("shared-5-count~m12.seg", merged.file());
        assertEquals(5, SharedSegmentFiles.uploader(merged.file()));
        assertEquals(12, SharedSegmentFiles.materialisation(merged.file()));
        byte[] version4 = privateFile();
        java.nio.ByteBuffer.wrap(version4).putInt(4, IncrementalCodec.VERSION_WITHOUT_MATERIALISED); // the CRC covers the body only
        assertTrue(IncrementalCodec.isIncremental(version4));
        assertEquals(IncrementalCodec.decodeMetadata(privateFile(), "v5").tasks(),
                IncrementalCodec.decodeMetadata(version4, "v4").tasks());
    }

    @Test
    void aWholeCheckpointIsNoPrivateFile() {
        byte[] whole = CheckpointCodec.encode(SampleCheckpoints.sample(3), "job-1");
        assertFalse(IncrementalCodec.isIncremental(whole));
        assertEquals("unsupported version: " + CheckpointCodec.VERSION_WITH_JOB + " (this build reads version "
                + IncrementalCodec.VERSION_WITHOUT_MATERIALISED + " or " + IncrementalCodec.VERSION + " here)",
                metadataDefect(whole));
    }

    @Test
    void theHeaderAloneSaysWhetherAFileIsAPrivateFile() {
        byte[] header = ByteBuffer.allocate(8).putInt(CheckpointCodec.MAGIC).putInt(IncrementalCodec.VERSION).array();
        assertTrue(IncrementalCodec.isIncremental(header));
        assertFalse(IncrementalCodec.isIncremental(Arrays.copyOf(header, 7)));
        assertFalse(IncrementalCodec.isIncremental(
                ByteBuffer.allocate(8).putInt(IncrementalCodec.SHARED_MAGIC).putInt(IncrementalCodec.VERSION).array()));
    }

    @Test
    void aWholeCheckpointWithBytesLeftOverInItsBodyIsRefused() {
        String defect = assertThrows(CorruptCheckpointException.class, () -> CheckpointCodec.decodeWithJob(
                withExtraByte(CheckpointCodec.encode(SampleCheckpoints.sample(3), "job-1")), "whole.ckpt")).defect();
        assertTrue(defect.endsWith("1 bytes left over after the statistics"), defect);
    }

    @Test
    void anEmptyBodyIsMalformedNotABadLength() {
        byte[] empty = CheckpointCodec.withHeader(CheckpointCodec.MAGIC, CheckpointCodec.VERSION_WITH_JOB, new byte[0]);
        String defect = assertThrows(CorruptCheckpointException.class,
                () -> CheckpointCodec.decodeWithJob(empty, "whole.ckpt")).defect();
        assertTrue(defect.startsWith("malformed body"), defect);
    }
}
