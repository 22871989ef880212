package dev.consistentcut.operator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class OperatorTest {

    private static Record rec(long offset, long key, long value) {
        return new Record(new RecordId("s#0", offset), key, value);
    }

    @Test
    void keyedCountCountsPerKeyAndRestoresItsCounts() {
        KeyedCount count = new KeyedCount();
        assertEquals(1, count.process(0, rec(0, 7, 99)).value());
        assertEquals(1, count.process(0, rec(1, 8, 99)).value());
        Record third = count.process(0, rec(2, 7, 99));
        assertEquals(2, third.value());
        assertEquals(new RecordId("s#0", 2), third.id(), "id and key kept");
        byte[] state = count.snapshotState();
        count.process(0, rec(3, 7, 1));
        count.restoreState(state);
        assertEquals(2, count.count(7));
        assertEquals(1, count.count(8));
        assertArrayEquals(state, count.snapshotState());
    }

    @Test
    void truncatedStateIsRejectedNamingTheOperator() {
        KeyedCount count = new KeyedCount();
        count.process(0, rec(0, 7, 1));
        byte[] state = count.snapshotState();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new KeyedCount().restoreState(Arrays.copyOf(state, state.length - 3)));
        assertTrue(e.getMessage().startsWith("KeyedCount: state of " + (state.length - 3) + " bytes is truncated"), e.getMessage());
        IllegalArgumentException trailing = assertThrows(IllegalArgumentException.class,
                () -> new Sum().restoreState(new byte[9]));
        assertEquals("Sum: state has 1 unexpected trailing bytes (of 9)", trailing.getMessage());
    }

    @Test
    void sumAddsValuesAndRestores() {
        Sum sum = new Sum();
        sum.process(0, rec(0, 1, 5));
        assertEquals(12, sum.process(0, rec(1, 2, 7)).value());
        byte[] state = sum.snapshotState();
        sum.process(0, rec(2, 2, 100));
        sum.restoreState(state);
        assertEquals(12, sum.sum());
    }

    @Test
    void mapTransformsTheValueOnly() {
        MapOperator map = new MapOperator(v -> v * 10);
        assertEquals(rec(4, 3, 20), map.process(0, rec(4, 3, 2)));
        assertEquals(0, map.snapshotState().length);
    }

    @Test
    void joinEnrichesWithTheOtherSidesLatestValueForTheKey() {
        Join join = new Join((own, other) -> own * 100 + other);
        assertEquals(500, join.process(0, rec(0, 1, 5)).value(), "right side has not seen key 1");
        assertEquals(705, join.process(1, rec(1, 1, 7)).value());
        assertEquals(907, join.process(0, rec(2, 1, 9)).value());
        assertEquals(300, join.process(0, rec(3, 2, 3)).value(), "keys are separate");
        byte[] state = join.snapshotState();
        join.process(1, rec(4, 1, 1));
        join.restoreState(state);
        assertEquals(7, join.latest(1, 1));
        assertEquals(9, join.latest(0, 1));
        assertThrows(IllegalArgumentException.class, () -> join.process(2, rec(5, 1, 1)));
    }

    @Test
    void recordingSinkRestoresExactlyWhatItHadReceived() {
        RecordingSink sink = new RecordingSink();
        sink.process(0, rec(0, 1, 1));
        sink.process(0, rec(1, 2, 3));
        byte[] state = sink.snapshotState();
        sink.process(0, rec(2, 3, 3));
        RecordingSink restored = new RecordingSink();
        restored.restoreState(state);
        assertEquals(List.of(rec(0, 1, 1), rec(1, 2, 3)), restored.received());
        assertThrows(IllegalArgumentException.class, () -> new RecordingSink(-1));
    }

    @Test
    void recordingSinkMergesAWholeStateAndItsChangesIntoTheWholeState() {
        RecordingSink sink = new RecordingSink();
        sink.process(0, rec(0, 1, 1));
        sink.process(0, new Record(new RecordId("s\u00e9#1", 4), 2, 3));
        byte[] whole = sink.snapshotState();
        sink.snapshotChanges();
        byte[] none = sink.snapshotChanges();
        sink.process(0, rec(2, 3, 3));
        sink.process(0, rec(3, 4, 4));
        byte[] changes = sink.snapshotChanges();
        assertArrayEquals(sink.snapshotState(), sink.mergeState(List.of(whole, none, changes)));
        RecordingSink restored = new RecordingSink();
        restored.restoreState(sink.mergeState(List.of(whole, changes)));
        assertEquals(sink.received(), restored.received());
    }

    @Test
    void recordingSinkRefusesToMergeASegmentThatIsNotItsEncoding() {
        RecordingSink sink = new RecordingSink();
        sink.process(0, rec(0, 1, 1));
        byte[] whole = sink.snapshotState();
        byte[] truncated = Arrays.copyOf(whole, whole.length - 1);
        byte[] trailing = Arrays.copyOf(whole, whole.length + 1);
        byte[] negative = {(byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff};
        for (byte[] bad : List.of(truncated, trailing, negative, new byte[2])) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> sink.mergeState(List.of(whole, bad)));
            assertTrue(e.getMessage().startsWith("RecordingSink"), e.getMessage());
        }
    }
}
