package dev.consistentcut.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.message.RecordId;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A snapshot kept as changelogs answers like the whole ledger it stands for: the checks look
 * records up in it (absent means never processed), and the codec sizes it without assembling it.
 */
class TaskSnapshotLedgerTest {

    private static final RecordId A0 = new RecordId("a", 0);
    private static final RecordId A1 = new RecordId("a", 1);
    private static final RecordId B0 = new RecordId("b", 0);

    /** The ledger {A0: 2, A1: 1} as a base {A0: 1} and one change {A0: 2, A1: 1}. */
    private static TaskSnapshot chained() {
        Changelog<Map<RecordId, Integer>> ledger = Changelog.<Map<RecordId, Integer>>base(Map.of(A0, 1), 1)
                .writeState(Map.of(A0, 2, A1, 1), 2);
        return TaskSnapshot.ofChangelogs(Changelog.base(new byte[] {7}, 1), StateMerge.WHOLE, 1, ledger, 2,
                TaskSnapshot.ledgerEntryBytes(A0) + TaskSnapshot.ledgerEntryBytes(A1));
    }

    @Test
    void aLookupFindsTheNewestCountAndNothingForARecordNeverProcessed() {
        TaskSnapshot s = chained();
        Map<RecordId, Integer> ledger = s.processed();
        assertEquals(2, ledger.get(A0), "the newest segment's count wins");
        assertEquals(1, ledger.get(A1));
        assertNull(ledger.get(B0), "a record never processed has no entry, not a count of 0");
        assertTrue(ledger.containsKey(A1));
        assertFalse(ledger.containsKey(B0));
        assertEquals(0, s.timesProcessed(B0));
        assertEquals(2, s.timesProcessed(A0));
    }

    @Test
    void theAssembledLedgerIsTheWholeOneAndEqualsAWholeSnapshotOfIt() {
        TaskSnapshot s = chained();
        TaskSnapshot whole = new TaskSnapshot(new byte[] {7}, Map.of(A0, 2, A1, 1));
        assertEquals(Map.of(A0, 2, A1, 1), Map.copyOf(s.processed()));
        assertEquals(2, s.ledgerEntries());
        assertEquals(whole.ledgerEntries(), s.ledgerEntries());
        assertEquals(whole.ledgerBytes(), s.ledgerBytes());
        assertEquals(whole, s);
        assertEquals(whole.hashCode(), s.hashCode());
    }

    @Test
    void theRecordsChangedSinceAnEarlierSnapshotAreThoseOfTheSegmentsAfterIt() {
        Changelog<Map<RecordId, Integer>> base = Changelog.base(Map.of(A0, 1), 1);
        TaskSnapshot earlier = TaskSnapshot.ofChangelogs(Changelog.base(new byte[0], 0), StateMerge.WHOLE, 0, base, 1, 0);
        TaskSnapshot later = TaskSnapshot.ofChangelogs(Changelog.base(new byte[0], 0), StateMerge.WHOLE, 0,
                base.writeState(Map.of(B0, 1), 1), 2, 0);
        assertEquals(Set.of(B0), later.changedSince(earlier));
        assertNull(later.changedSince(null));
        assertNull(earlier.changedSince(later), "an older snapshot does not extend a newer one");
    }
}
