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
        assertEquals(6 * 3 + 12, schedule.size(), "6 cells without backpressure 3 times, 12 others once");
        // The first group: the three modes of none/even, three times over, in mode order.
        for (int i = 0; i < 9; i++) {
            assertEquals(new Scenario(Backpressure.NONE, false, Mode.values()[i % 3]), schedule.get(i));
        }
        assertEquals(1, RunPlan.quickPlan().schedule().stream().filter(s -> s.backpressure() == Backpressure.NONE).count() / 3);
    }

    @Test
    void theQuickPlanIsTheSkewedHalfOfTheFullGrid() {
        assertEquals(18, RunPlan.fullPlan().scenarios().size());
        assertEquals(9, RunPlan.quickPlan().scenarios().size());
        assertTrue(RunPlan.quickPlan().scenarios().stream().allMatch(Scenario::skew));
        assertTrue(RunPlan.fullPlan().scenarios().containsAll(RunPlan.quickPlan().scenarios()));
    }
}
