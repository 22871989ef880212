package dev.consistentcut.checkpoint;

import static dev.consistentcut.checkpoint.SampleCheckpoints.sample;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CheckpointCodecTest {

    static CompletedCheckpoint decode(byte[] bytes) throws CorruptCheckpointException {
        return CheckpointCodec.decode(bytes, "test.ckpt");
    }

    static String defectOf(byte[] bytes) {
        CorruptCheckpointException e = assertThrows(CorruptCheckpointException.class, () -> decode(bytes));
        assertTrue(e.getMessage().startsWith("test.ckpt: "), e.getMessage());
        return e.defect();
    }

    @Test
    void roundTripIsEqual() throws Exception {
        CompletedCheckpoint c = sample(7);
        CompletedCheckpoint back = decode(CheckpointCodec.encode(c));
        assertEquals(c, back);
        assertArrayEquals(c.taskSnapshots().get("sink").operatorState(),
                back.taskSnapshots().get("sink").operatorState());
        assertEquals(List.of(c.channelState().get("src-α->count")), List.of(back.channelState().get("src-α->count")));
    }

    @Test
    void roundTripOfAnEmptyCheckpoint() throws Exception {
        CompletedCheckpoint c = new CompletedCheckpoint(1, Map.of(), Map.of(), Map.of(),
                new CheckpointStats(0, 0, Map.of(), Map.of(), 0, 0, 0));
        assertEquals(c, decode(CheckpointCodec.encode(c)));
    }

    @Test
    void equalCheckpointsEncodeToEqualBytesWhateverTheMapOrder() {
        CompletedCheckpoint c = sample(3);
        Map<String, Long> reversed = new LinkedHashMap<>();
        reversed.put("src-β", 20L);
        reversed.put("src-α", 13L);
        CompletedCheckpoint same = new CompletedCheckpoint(3, reversed, c.taskSnapshots(), c.channelState(), c.stats());
        assertEquals(c, same);
        assertArrayEquals(CheckpointCodec.encode(c), CheckpointCodec.encode(same));
    }

    @Test
    void headerCarriesMagicVersionAndBodyLength() {
        byte[] bytes = CheckpointCodec.encode(sample(1));
        ByteBuffer b = ByteBuffer.wrap(bytes);
        assertEquals(0x43434B50, b.getInt(0));
        assertEquals(1, b.getInt(4));
        assertEquals(bytes.length - 16, b.getInt(8));
    }

    /** The check that must be able to fail: no single flipped bit anywhere goes unnoticed. */
    @Test
    void everySingleBitFlipIsDetected() {
        byte[] good = CheckpointCodec.encode(sample(5));
        for (int bit = 0; bit < good.length * 8; bit++) {
            byte[] bad = good.clone();
            bad[bit / 8] ^= (byte) (1 << (bit % 8));
            String defect = defectOf(bad);
            if (bit / 8 >= 16) {
                assertTrue(defect.startsWith("checksum mismatch"), "bit " + bit + ": " + defect);
            }
        }
    }

    @Test
    void everyTruncationIsDetectedAndSaysHowMuchIsMissing() {
        byte[] good = CheckpointCodec.encode(sample(5));
        for (int length = 0; length < good.length; length++) {
            String defect = defectOf(Arrays.copyOf(good, length));
            if (length >= 16) {
                assertEquals("truncated: expected " + good.length + " bytes, found " + length, defect);
            } else if (length < 4) {
                assertEquals("truncated: expected at least 16 bytes (the header), found " + length, defect);
            }
        }
    }

    @Test
    void trailingBytesAreDetected() {
        byte[] good = CheckpointCodec.encode(sample(5));
        String defect = defectOf(Arrays.copyOf(good, good.length + 1));
        assertEquals("trailing bytes: expected " + good.length + " bytes, found " + (good.length + 1), defect);
    }

    @Test
    void badMagicAndUnsupportedVersionAreNamed() {
        byte[] good = CheckpointCodec.encode(sample(5));
        byte[] notOurs = "hello, world, this is not a checkpoint".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        assertTrue(defectOf(notOurs).startsWith("bad magic"), defectOf(notOurs));
        byte[] future = good.clone();
        ByteBuffer.wrap(future).putInt(4, 3);
        assertEquals("unsupported version: 3 (this build reads versions 1 and 2)", defectOf(future));
    }

    /** A body that passes its checksum but lies (a forged or miswritten count) is still refused. */
    @Test
    void aMalformedBodyWithAValidChecksumIsRefused() {
        byte[] good = CheckpointCodec.encode(sample(5));
        byte[] forged = good.clone();
        ByteBuffer b = ByteBuffer.wrap(forged);
        b.putInt(16 + 8, Integer.MAX_VALUE); // the source-offset count, right after the id
        b.putInt(12, CheckpointCodec.crc32c(forged, 16, forged.length - 16));
        String defect = defectOf(forged);
        assertTrue(defect.startsWith("malformed body"), defect);
        assertTrue(defect.contains("source offset count 2147483647"), defect);
    }

    @Test
    void sizesAreThoseOfTheSectionsInTheEncoding() {
        CompletedCheckpoint c = sample(2);
        CompletedCheckpoint noState = new CompletedCheckpoint(2, c.sourceOffsets(), Map.of(), c.channelState(), c.stats());
        CompletedCheckpoint noChannels = new CompletedCheckpoint(2, c.sourceOffsets(), c.taskSnapshots(), Map.of(), c.stats());
        int full = CheckpointCodec.encode(c).length;
        assertEquals(full - CheckpointCodec.encode(noState).length,
                CheckpointCodec.stateSize(c.taskSnapshots()) - CheckpointCodec.stateSize(Map.of()));
        assertEquals(full - CheckpointCodec.encode(noChannels).length,
                CheckpointCodec.channelStateSize(c.channelState()) - CheckpointCodec.channelStateSize(Map.of()));
        assertEquals(4, CheckpointCodec.stateSize(Map.of())); // just the count
    }

    @Test
    void channelStateIsSizedAsUtf8EncodesItsNames() throws IOException {
        // The size is counted, not encoded: each kind of character must count as the encoder writes it.
        for (String name : List.of("", "src-1", "é", "€uro", "src-\uD83D\uDE00", "lone-\uD83D", "\uDE00-lone", "end\uD83D")) {
            assertEquals(name.getBytes(StandardCharsets.UTF_8).length, CheckpointCodec.utf8Length(name), name);
            Map<String, List<Record>> state = Map.of(name, List.of(new Record(new RecordId(name, 1), 2, 3)));
            ByteArrayOutputStream encoded = new ByteArrayOutputStream();
            CheckpointCodec.writeChannelState(new DataOutputStream(encoded), state);
            assertEquals(encoded.size(), CheckpointCodec.channelStateSize(state), name);
        }
    }

    @Test
    void aCheckpointCarriesItsJobInVersionTwo() throws Exception {
        byte[] withJob = CheckpointCodec.encode(sample(5), "job-a");
        assertEquals(CheckpointCodec.VERSION_WITH_JOB, ByteBuffer.wrap(withJob).getInt(4));
        CheckpointCodec.Decoded d = CheckpointCodec.decodeWithJob(withJob, "x");
        assertEquals("job-a", d.jobId());
        assertEquals(sample(5), d.checkpoint());
        assertEquals(null, CheckpointCodec.decodeWithJob(CheckpointCodec.encode(sample(5)), "x").jobId());
    }
}
