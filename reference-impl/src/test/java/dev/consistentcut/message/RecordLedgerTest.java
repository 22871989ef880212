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
}
