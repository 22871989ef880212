package dev.consistentcut.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.message.RecordId;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The value classes the other tests lean on. {@link TaskSnapshot#equals} is the oracle of every
 * round-trip test (codec, stores, restores): an equals that always says yes would make them all
 * pass vacuously, so it is pinned down here, field by field.
 */
class CheckpointValuesTest {

    static final RecordId A = new RecordId("s", 1);
    static final RecordId B = new RecordId("s", 2);

    @Test
    void taskSnapshotsAreEqualExactlyWhenStateBytesAndLedgerAreEqual() {
        TaskSnapshot s = new TaskSnapshot(new byte[] {1, 2}, Map.of(A, 1));
        TaskSnapshot same = new TaskSnapshot(new byte[] {1, 2}, Map.of(A, 1));
        assertEquals(s, same);
        assertEquals(s.hashCode(), same.hashCode());
        assertNotEquals(s, new TaskSnapshot(new byte[] {1, 3}, Map.of(A, 1)), "other state bytes");
        assertNotEquals(s, new TaskSnapshot(new byte[] {1, 2}, Map.of(A, 2)), "other count");
        assertNotEquals(s, new TaskSnapshot(new byte[] {1, 2}, Map.of(B, 1)), "other record");
        assertNotEquals(s, new TaskSnapshot(new byte[] {1, 2}, Map.of()), "empty ledger");
        assertNotEquals(s, "TaskSnapshot", "another type");
        assertNotEquals(new TaskSnapshot(new byte[] {1}, Map.of()).hashCode(),
                new TaskSnapshot(new byte[] {2}, Map.of()).hashCode(), "the state bytes feed the hash");
        assertEquals("TaskSnapshot[stateBytes=2, processed={" + A + "=1}]", s.toString());
    }

    @Test
    void aTaskSnapshotIsACopyOfItsBytes() {
        byte[] bytes = {7};
        TaskSnapshot s = new TaskSnapshot(bytes, Map.of());
        bytes[0] = 8;
        s.operatorState()[0] = 9;
        assertEquals(7, s.operatorState()[0]);
        assertEquals(0, s.timesProcessed(A));
        assertEquals(3, new TaskSnapshot(bytes, Map.of(A, 3)).timesProcessed(A));
    }

    @Test
    void aCheckpointCountsItsPersistedRecordsOverEveryChannel() {
        assertEquals(4, SampleCheckpoints.sample(1).persistedRecordCount()); // 3 + 0 + 1
    }

    @Test
    void checkpointStatisticsDeriveDurationAndLongestAlignment() {
        CheckpointStats stats = new CheckpointStats(100, 130, Map.of("a", 1L), Map.of("a", 4L, "b", 9L), 2, 3, 4);
        assertEquals(30, stats.duration());
        assertEquals(9, stats.maxAlignment());
        assertEquals(0, new CheckpointStats(5, 5, Map.of(), Map.of(), 0, 0, 0).maxAlignment());
    }

    @Test
    void aCorruptCheckpointExceptionNamesWhereAndWhat() {
        CorruptCheckpointException e = new CorruptCheckpointException("chk-3.ckpt", "bad magic");
        assertEquals("chk-3.ckpt", e.where());
        assertEquals("chk-3.ckpt: bad magic", e.getMessage());
    }

    @Test
    void fourBytesThatAreNotTheMagicAreNamedAsSuch() {
        CorruptCheckpointException e = assertThrows(CorruptCheckpointException.class,
                () -> CheckpointCodec.decode(new byte[] {1, 2, 3, 4}, "x"));
        assertTrue(e.getMessage().contains("bad magic"), e.getMessage());
    }
}
