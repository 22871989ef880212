package dev.consistentcut.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
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
    void theQuickPlanIsTheSkewedHalfOfTheFullGrid() {
        assertEquals(18, RunPlan.fullPlan().scenarios().size());
        assertEquals(9, RunPlan.quickPlan().scenarios().size());
        assertTrue(RunPlan.quickPlan().scenarios().stream().allMatch(Scenario::skew));
        assertTrue(RunPlan.fullPlan().scenarios().containsAll(RunPlan.quickPlan().scenarios()));
    }
}
