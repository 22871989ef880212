package dev.consistentcut.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class OverheadABTest {

    private static List<OverheadAB.Pair> pairs(double... overheads) {
        List<OverheadAB.Pair> out = new ArrayList<>();
        for (int i = 0; i < overheads.length; i++) {
            out.add(new OverheadAB.Pair(1000, 1000 * (1 - overheads[i]), i % 2 == 1));
        }
        return out;
    }

    @Test
    void theVerdictReadsTheIntervalNotTheMedian() {
        assertEquals("met", OverheadAB.verdict(-0.02, 0.05));
        assertEquals("undecided", OverheadAB.verdict(-0.02, 0.0501));
        assertEquals("undecided", OverheadAB.verdict(0.05, 0.09), "a lower end of exactly 5% is not above it");
        assertEquals("missed", OverheadAB.verdict(0.0501, 0.09));
    }

    @Test
    void tightPairsBelowTheLimitAreMetAndAboveItMissed() {
        OverheadAB.Result low = OverheadAB.analyse("c", pairs(0.01, 0.02, 0.00, 0.015, 0.01, 0.02, 0.005, 0.01, 0.012, 0.018), 1);
        assertEquals("met", low.verdict(), low.describe());
        assertTrue(low.low() <= low.median() && low.median() <= low.high());
        assertEquals(0.011, low.median(), 1e-9);
        OverheadAB.Result high = OverheadAB.analyse("c", pairs(0.10, 0.12, 0.09, 0.11, 0.10, 0.13, 0.095, 0.10, 0.11, 0.12), 1);
        assertEquals("missed", high.verdict(), high.describe());
    }

    @Test
    void widelySpreadPairsAreUndecided() {
        OverheadAB.Result r = OverheadAB.analyse("c", pairs(-0.3, 0.4, -0.1, 0.2, 0.05, -0.2, 0.3, 0.0, 0.1, -0.05), 1);
        assertEquals("undecided", r.verdict(), r.describe());
        assertTrue(r.low() < 0.05 && r.high() > 0.05);
    }

    @Test
    void theIntervalIsReproducibleFromItsSeedAndTheOverallVerdictCombinesCells() {
        List<OverheadAB.Pair> p = pairs(0.01, 0.07, 0.03, -0.02, 0.04, 0.06, 0.0, 0.02, 0.05, 0.01);
        OverheadAB.Result a = OverheadAB.analyse("c", p, 7);
        OverheadAB.Result b = OverheadAB.analyse("c", p, 7);
        assertEquals(a.low(), b.low());
        assertEquals(a.high(), b.high());
        OverheadAB.Result met = OverheadAB.analyse("m", pairs(0.01, 0.01, 0.01), 1);
        OverheadAB.Result missed = OverheadAB.analyse("x", pairs(0.2, 0.2, 0.2), 1);
        assertEquals("met", OverheadAB.overall(List.of(met)));
        assertEquals("missed", OverheadAB.overall(List.of(met, missed, a)));
        assertEquals("not measured", OverheadAB.overall(List.of()));
        assertThrows(IllegalArgumentException.class, () -> OverheadAB.analyse("c", List.of(), 1));
        assertTrue(OverheadAB.csv(List.of(met)).startsWith("cell,pair,order,off_rps,on_rps,overhead\nm,1,off-on,"));
        assertTrue(OverheadAB.markdown(List.of(met, missed), 1000).contains("Overall: missed."));
    }

    @Test
    void theTargetTakesTheABVerdictIncludingUndecided() {
        OverheadAB.Result spread = OverheadAB.analyse("skew aligned", pairs(-0.3, 0.4, -0.1, 0.2, 0.05, -0.2, 0.3, 0.0, 0.1, -0.05), 1);
        Targets.Verdict v = new Targets(List.of(), List.of(spread)).checkpointCost();
        assertEquals("undecided", v.status(), v.measured());
        assertTrue(v.measured().contains("95% CI"), v.measured());
        OverheadAB.Result met = OverheadAB.analyse("skew unaligned", pairs(0.01, 0.01, 0.02), 1);
        assertEquals("met", new Targets(List.of(), List.of(met)).checkpointCost().status());
        OverheadAB.Result missed = OverheadAB.analyse("skew unaligned", pairs(0.2, 0.2, 0.3), 1);
        assertEquals("MISSED", new Targets(List.of(), List.of(met, missed)).checkpointCost().status());
    }
}
