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
    void anUndecidedCellRunsMorePairsInCouplesUntilDecidedOrAtTheMost() {
        assertTrue(OverheadAB.wantsAnotherPair(pairs(), 4, 8, 1), "below the minimum: always");
        assertTrue(OverheadAB.wantsAnotherPair(pairs(0.01, 0.01, 0.01), 4, 8, 1));
        // Decided (met) at the minimum: stop.
        assertEquals(false, OverheadAB.wantsAnotherPair(pairs(0.01, 0.012, 0.009, 0.011), 4, 8, 1));
        // Undecided (spread across 5%) at the minimum: go on, and finish the couple of orders.
        List<OverheadAB.Pair> spread = pairs(-0.05, 0.15, 0.0, 0.10);
        assertEquals("undecided", OverheadAB.analyse("c", spread, 1).verdict());
        assertTrue(OverheadAB.wantsAnotherPair(spread, 4, 8, 1));
        assertTrue(OverheadAB.wantsAnotherPair(pairs(-0.05, 0.15, 0.0, 0.10, 0.02), 4, 8, 1), "odd count: the couple's other order");
        // At the most pairs allowed: stop, undecided or not.
        assertEquals(false, OverheadAB.wantsAnotherPair(pairs(-0.05, 0.15, 0.0, 0.10, -0.05, 0.15, 0.0, 0.10), 4, 8, 1));
        assertEquals(false, OverheadAB.wantsAnotherPair(pairs(), 0, 0, 1), "no pairs wanted: none run");
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
    void withCpuFiguresTheCellIsJudgedOnTheCpuPerRecord() {
        // Throughput spread wide by other work on the machine (undecided on its own), the CPU per
        // record steady at 2% more with checkpoints: met; and the same throughput with 10% more CPU: missed.
        double[] throughputOverheads = {-0.3, 0.4, -0.1, 0.2, 0.05, -0.2, 0.3, 0.0, 0.1, -0.05};
        List<OverheadAB.Pair> cheap = new ArrayList<>();
        List<OverheadAB.Pair> costly = new ArrayList<>();
        for (int i = 0; i < throughputOverheads.length; i++) {
            double on = 1000 * (1 - throughputOverheads[i]);
            cheap.add(new OverheadAB.Pair(1000, on, i % 2 == 1, 1.0, 1.02 + i * 0.001));
            costly.add(new OverheadAB.Pair(1000, on, i % 2 == 1, 1.0, 1.10 + i * 0.001));
        }
        OverheadAB.Result met = OverheadAB.analyse("c", cheap, 1);
        assertEquals("undecided", OverheadAB.verdict(met.low(), met.high()), "throughput alone cannot tell");
        assertEquals("met", met.verdict(), met.describe());
        assertEquals(0.0245, met.cpu().median(), 1e-9);
        assertEquals("missed", OverheadAB.analyse("c", costly, 1).verdict());
        assertTrue(OverheadAB.markdown(List.of(met), 2000).contains("| +2.4% | [+2.2%, +2.7%] | n/a | 0.00 / 0.00 | met |"),
                OverheadAB.markdown(List.of(met), 2000));
    }

    @Test
    void theCoresBusySplitAThroughputDropIntoCostlierRecordsAndIdleCores() {
        // 4.0M records/s at 0.40 us each keeps 1.6 cores busy; with checkpoints 3.6M at 0.42 us: 1.512.
        OverheadAB.Pair p = new OverheadAB.Pair(4_000_000, 3_600_000, false, 0.40, 0.42);
        assertEquals(1.6, p.coresOff(), 1e-9);
        assertEquals(1.512, p.coresOn(), 1e-9);
        assertEquals(p.on() / p.off(), (p.coresOn() / p.coresOff()) / (p.cpuOn() / p.cpuOff()), 1e-12);
        String md = OverheadAB.markdown(List.of(OverheadAB.analyse("c", List.of(p), 1)), 3000);
        assertTrue(md.contains("| 1.60 / 1.51 |"), md);
    }

    @Test
    void theJitCompilersCpuIsLeftOutOfTheVerdictAndReportedApart() {
        // Each run with checkpoints spends 5% of its CPU compiling: counted, that is +7.1% and the
        // cell missed; left out (the job's own CPU 2% more), met, with the compiler's share shown.
        Scenario offCell = new Scenario(Backpressure.NONE, false, Mode.NONE);
        Scenario onCell = new Scenario(Backpressure.NONE, false, Mode.UNALIGNED);
        List<OverheadAB.Pair> pairs = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            double job = 1.02 + i * 0.001; // the job's CPU seconds with checkpoints; 1.0 without
            ScenarioRun off = new ScenarioRun(ScenarioRun.REFERENCE, offCell, 1, 1_000_000, List.of(), 0, 1.0, 0.0);
            ScenarioRun on = new ScenarioRun(ScenarioRun.REFERENCE, onCell, 1, 1_000_000, List.of(), 0, job / 0.95,
                    job / 0.95 * 0.05);
            pairs.add(OverheadRun.pairOf(off, on, i % 2 == 1));
        }
        OverheadAB.Result r = OverheadAB.analyse("c", pairs, 1);
        assertEquals("met", r.verdict(), r.describe());
        assertEquals(0.0245, r.cpu().median(), 1e-9);
        String md = OverheadAB.markdown(List.of(r), 3000);
        assertTrue(md.contains("| 0.0% / 5.0% |"), md);
        assertEquals(0.05, pairs.get(0).compilerShareOn(), 1e-9);

        // Where the compiler's CPU is unknown the whole JVM's counts, and the share reads n/a.
        ScenarioRun offUnknown = new ScenarioRun(ScenarioRun.REFERENCE, offCell, 1, 1_000_000, List.of(), 0, 1.0);
        ScenarioRun onUnknown = new ScenarioRun(ScenarioRun.REFERENCE, onCell, 1, 1_000_000, List.of(), 0, 1.1);
        OverheadAB.Pair whole = OverheadRun.pairOf(offUnknown, onUnknown, false);
        assertEquals(0.1, whole.cpuOverhead(), 1e-9);
        assertTrue(OverheadAB.markdown(List.of(OverheadAB.analyse("c", List.of(whole), 1)), 3000).contains("| n/a |"));
    }

    private static List<OverheadAB.Pair> cpuPairs(double cpuOverhead, int n) {
        List<OverheadAB.Pair> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new OverheadAB.Pair(1000, 980, i % 2 == 1, 1.0, 1.0 + cpuOverhead + (i % 5) * 0.001));
        }
        return out;
    }

    @Test
    void pairsFromSeveralJvmsAreJudgedByResamplingTheJvmsToo() {
        // Two JVMs at +2%, one at +6%: pooled as if from one JVM the median +2% looks certain; resampling
        // the JVMs (a draw may hold the +6% one twice) leaves it undecided.
        List<List<OverheadAB.Pair>> disagreeing = List.of(cpuPairs(0.02, 20), cpuPairs(0.02, 20), cpuPairs(0.06, 20));
        List<OverheadAB.Pair> pooled = disagreeing.stream().flatMap(List::stream).toList();
        assertEquals("met", OverheadAB.analyse("c", pooled, 3).verdict());
        OverheadAB.Result forks = OverheadAB.analyseForks("c", disagreeing, 3);
        assertEquals("undecided", forks.verdict(), forks.describe());
        assertEquals(3, forks.forks());
        assertEquals(60, forks.pairs().size());
        assertTrue(forks.cpu().high() > 0.05, forks.describe());
        assertTrue(forks.describe().contains("over 60 pairs from 3 JVMs"), forks.describe());
        assertTrue(OverheadAB.markdown(List.of(forks), 3000).contains("| c | 60 (3 JVMs) |"));
        assertTrue(OverheadAB.markdown(List.of(forks), 3000).contains("two-stage bootstrap"));

        // JVMs that agree decide as one would.
        OverheadAB.Result agreeing = OverheadAB.analyseForks("c", List.of(cpuPairs(0.02, 20), cpuPairs(0.021, 20),
                cpuPairs(0.019, 20)), 3);
        assertEquals("met", agreeing.verdict(), agreeing.describe());
        // One JVM is the ordinary analysis.
        List<OverheadAB.Pair> one = cpuPairs(0.03, 10);
        assertEquals(OverheadAB.analyse("c", one, 5), OverheadAB.analyseForks("c", List.of(one), 5));
        assertThrows(IllegalArgumentException.class, () -> OverheadAB.analyseForks("c", List.of(one, List.of()), 5));
    }

    @Test
    void aForksCsvReadsBackAsItsPairs() {
        OverheadAB.Pair p = new OverheadAB.Pair(4_000_000, 3_600_000, true, 0.40, 0.42, 0.001, 0.01);
        OverheadAB.Pair q = new OverheadAB.Pair(3_900_000, 3_700_000, false, 0.41, 0.43, 0.0, 0.002);
        String csv = OverheadAB.csv(List.of(OverheadAB.analyse("even aligned", List.of(p, q), 1),
                OverheadAB.analyse("skew aligned", List.of(q), 1)));
        assertEquals(List.of(p, q), OverheadAB.pairsOf(csv, "even aligned"));
        assertEquals(List.of(q), OverheadAB.pairsOf(csv, "skew aligned"));
        assertEquals(List.of(), OverheadAB.pairsOf(csv, "even unaligned"));
        // The layout before the compiler columns, and a broken row named by its line.
        String old = "cell,pair,order,off_rps,on_rps,overhead,cpu_off_us,cpu_on_us,cpu_overhead\n"
                + "even aligned,1,off-on,1000.0,900.0,0.10000,0.5000,0.5500,0.10000\n";
        assertEquals(List.of(new OverheadAB.Pair(1000, 900, false, 0.5, 0.55)), OverheadAB.pairsOf(old, "even aligned"));
        String broken = old + "even aligned,2,on-off,1000.0\n";
        assertTrue(assertThrows(IllegalArgumentException.class, () -> OverheadAB.pairsOf(broken, "even aligned"))
                .getMessage().startsWith("line 3: 4 columns"));
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
        assertTrue(OverheadAB.csv(List.of(met)).startsWith("cell,pair,order,off_rps,on_rps,overhead,cpu_off_us,cpu_on_us,cpu_overhead,compiler_off_us,compiler_on_us\nm,1,off-on,"));
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
