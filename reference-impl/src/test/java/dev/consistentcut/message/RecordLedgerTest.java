package dev.consistentcut.message;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The compact ledger behaves as a map of record ids to counts, entries in (source, offset) order. */
class RecordLedgerTest {

    /** Random puts, merges and removes, on the ledger and on a TreeMap: the same map after each step. */
    @Test
    void behavesAsASortedMap() {
        for (long seed = 1; seed <= 40; seed++) {
            Random random = new Random(seed);
            RecordLedger ledger = new RecordLedger();
            TreeMap<RecordId, Integer> model = new TreeMap<>();
            for (int step = 0; step < 400; step++) {
                RecordId id = new RecordId("s" + random.nextInt(3), offset(random));
                switch (random.nextInt(5)) {
                    case 0, 1 -> assertEquals(model.merge(id, 1, Integer::sum), ledger.merge(id, 1, Integer::sum));
                    case 2 -> {
                        int count = random.nextInt(3) + 1;
                        assertEquals(model.put(id, count), ledger.put(id, count), "put " + id);
                    }
                    case 3 -> assertEquals(model.remove(id), ledger.remove(id), "remove " + id);
                    default -> assertEquals(model.get(id), ledger.get(id), "get " + id);
                }
                assertEquals(model.size(), ledger.size(), "seed " + seed + " step " + step);
            }
            assertEquals(new ArrayList<>(model.entrySet()), new ArrayList<>(ledger.entrySet()), "seed " + seed);
            assertEquals(model, ledger);
            assertEquals(ledger, model);
            assertEquals(model.hashCode(), ledger.hashCode());
            assertEquals(new HashMap<>(model), new RecordLedger(new HashMap<>(model)));
        }
    }

    /** Mostly small offsets (bits), some beyond what a bit can index (kept as other counts). */
    private static long offset(Random random) {
        return random.nextInt(10) == 0 ? (Long.MAX_VALUE - random.nextInt(4)) : random.nextInt(200);
    }

    @Test
    void removesWhileIterating() {
        RecordLedger ledger = new RecordLedger();
        for (int i = 0; i < 300; i++) {
            ledger.put(new RecordId(i % 2 == 0 ? "a" : "b", i), i % 7 == 0 ? 2 : 1);
        }
        List<RecordId> kept = new ArrayList<>();
        for (Iterator<Map.Entry<RecordId, Integer>> it = ledger.entrySet().iterator(); it.hasNext(); ) {
            RecordId id = it.next().getKey();
            if (id.offset() % 3 == 0) {
                it.remove();
            } else {
                kept.add(id);
            }
        }
        assertEquals(200, ledger.size());
        assertEquals(kept, new ArrayList<>(ledger.keySet()));
        assertThrows(IllegalStateException.class, () -> ledger.entrySet().iterator().remove());
    }

    @Test
    void refusesANullCount() {
        assertThrows(NullPointerException.class, () -> new RecordLedger().put(new RecordId("s", 0), null));
    }

    /**
     * A ledger put into another (a materialisation merging segments) gives what putting its
     * entries one by one gives: counts overwritten, offsets with other counts becoming once, new
     * entries counted in the size, on random ledgers of several words and sources.
     */
    @Test
    void putAllOfALedgerIsPutAllOfItsEntries() {
        for (long seed = 1; seed <= 60; seed++) {
            Random random = new Random(seed);
            RecordLedger into = randomLedger(random);
            RecordLedger from = randomLedger(random);
            TreeMap<RecordId, Integer> model = new TreeMap<>(into);
            model.putAll(new TreeMap<>(from));
            into.putAll(from.readOnly());
            assertEquals(model.size(), into.size(), "seed " + seed);
            assertEquals(new ArrayList<>(model.entrySet()), new ArrayList<>(into.entrySet()), "seed " + seed);
        }
    }

    private static RecordLedger randomLedger(Random random) {
        RecordLedger ledger = new RecordLedger();
        int n = random.nextInt(300);
        for (int i = 0; i < n; i++) {
            RecordId id = new RecordId("s" + random.nextInt(3), random.nextInt(20) == 0 ? Long.MAX_VALUE - random.nextInt(3)
                    : random.nextInt(400));
            ledger.put(id, random.nextInt(4) == 0 ? 2 + random.nextInt(2) : 1);
            if (random.nextInt(10) == 0) {
                ledger.remove(id);
            }
        }
        return ledger;
    }

    /** Each source's entries as the codec reads them: bits from any offset, the other counts, no emptied source. */
    @Test
    void sourcesShowTheBitsFromAnyOffsetAndTheOtherCounts() {
        RecordLedger ledger = new RecordLedger();
        for (long o : new long[] {3, 64, 70, 130}) {
            ledger.put(new RecordId("a", o), 1);
        }
        ledger.put(new RecordId("a", 71), 2);
        ledger.put(new RecordId("gone", 5), 1);
        ledger.remove(new RecordId("gone", 5));
        List<RecordLedger.SourceEntries> sources = ledger.sources();
        assertEquals(1, sources.size());
        RecordLedger.SourceEntries a = sources.get(0);
        assertEquals("a", a.source());
        assertEquals(4, a.onceCount());
        assertEquals(3, a.firstOnce());
        assertEquals(130, a.lastOnce());
        assertEquals(1L | (1L << 61), a.onceWord(3)); // 3 (bit 0), 64 (bit 61); 70 would be bit 67
        assertEquals(1L | (1L << 6), a.onceWord(64)); // 64, 70; 130 would be bit 66
        assertEquals(1L << 2, a.onceWord(128));
        assertEquals(70, a.nextOnce(65));
        assertEquals(-1, a.nextOnce(131));
        assertEquals(Map.of(71L, 2), a.others());
    }

    @Test
    void aReadOnlyLedgerRefusesEveryWrite() {
        RecordLedger ledger = new RecordLedger();
        ledger.put(new RecordId("s", 1), 1);
        RecordLedger readOnly = ledger.readOnly();
        assertEquals(Map.of(new RecordId("s", 1), 1), readOnly);
        assertThrows(UnsupportedOperationException.class, () -> readOnly.put(new RecordId("s", 2), 1));
        assertThrows(UnsupportedOperationException.class, () -> readOnly.remove(new RecordId("s", 1)));
        assertThrows(UnsupportedOperationException.class, readOnly::clear);
        assertThrows(UnsupportedOperationException.class, () -> readOnly.putAll(new RecordLedger()));
        assertThrows(UnsupportedOperationException.class, () -> readOnly.putAll(Map.of()));
        assertEquals(1, readOnly.size());
    }
}
