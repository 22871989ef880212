package dev.consistentcut.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class JobShapeTest {

    @Test
    void keysStayInRangeAndCoverAllKeys() {
        Set<Long> seen = new HashSet<>();
        for (long offset = 0; offset < 100_000; offset++) {
            long k = JobShape.keyAt(offset);
            assertTrue(k >= 0 && k < JobShape.KEYS, "key " + k + " at offset " + offset);
            seen.add(k);
        }
        assertEquals(JobShape.KEYS, seen.size());
    }

    @Test
    void cellsWithoutBackpressureRunInInterleavedRounds() {
        List<Scenario> schedule = RunPlan.fullPlan().schedule();
        assertEquals(8 * 3 + 16, schedule.size(), "8 cells without backpressure 3 times, 16 others once");
        // The first group: the four modes of none/even, three times over, in mode order.
        for (int i = 0; i < 12; i++) {
            assertEquals(new Scenario(Backpressure.NONE, false, Mode.values()[i % 4]), schedule.get(i));
        }
        assertEquals(1, RunPlan.quickPlan().schedule().stream().filter(s -> s.backpressure() == Backpressure.NONE).count() / 4);
    }

    @Test
    void theQuickPlanIsTheSkewedHalfOfTheFullGrid() {
        assertEquals(24, RunPlan.fullPlan().scenarios().size());
        assertEquals(12, RunPlan.quickPlan().scenarios().size());
        assertTrue(RunPlan.quickPlan().scenarios().stream().allMatch(Scenario::skew));
        assertTrue(RunPlan.fullPlan().scenarios().containsAll(RunPlan.quickPlan().scenarios()));
    }
}
