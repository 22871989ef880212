package dev.consistentcut.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The target judge must be able to say "missed": each target is broken once here. */
class TargetsTest {

    private static List<Targets.Verdict> judge(List<ScenarioRun> runs) {
        return new Targets(Fixtures.summaries(runs)).judge();
    }

    private static void replace(List<ScenarioRun> runs, ScenarioRun with) {
        runs.removeIf(r -> r.engine().equals(with.engine()) && r.scenario().equals(with.scenario()));
        runs.add(with);
    }

    @Test
    void aGridThatMeetsEveryTargetIsJudgedSo() {
        List<Targets.Verdict> v = judge(Fixtures.goodGrid());
        assertEquals(6, v.size());
        for (Targets.Verdict verdict : v) {
            assertEquals(Optional.of(true), verdict.met(), verdict.target() + ": " + verdict.measured());
        }
    }

    @Test
    void checkpointsCostingMoreThanFivePercentAreAMiss() {
        List<ScenarioRun> runs = Fixtures.goodGrid();
        replace(runs, Fixtures.run(ScenarioRun.REFERENCE, Backpressure.NONE, true, Mode.UNALIGNED, 900_000, 3, 1_000, 100, 50));
        Targets.Verdict v = judge(runs).get(0);
        assertEquals("MISSED", v.status());
        assertTrue(v.measured().contains("skew unaligned: +10.0%"), v.measured());
    }

    @Test
    void aSpeedupBelowFiftyIsAMiss() {
        List<ScenarioRun> runs = Fixtures.goodGrid();
        replace(runs, Fixtures.run(ScenarioRun.REFERENCE, Backpressure.HEAVY, true, Mode.UNALIGNED, 1_000, 100, 120_000, 4_000, 50));
        Targets.Verdict v = judge(runs).get(1);
        assertEquals("MISSED", v.status());
        assertTrue(v.measured().contains("= 40.0x"), v.measured());
    }

    @Test
    void noCompletedAlignedCheckpointIsAMissNotAPass() {
        List<ScenarioRun> runs = Fixtures.goodGrid();
        replace(runs, Fixtures.run(ScenarioRun.REFERENCE, Backpressure.HEAVY, true, Mode.ALIGNED, 1_000, 4_000, 0, 4_000, 0));
        Targets.Verdict v = judge(runs).get(1);
        assertEquals("MISSED", v.status());
        assertTrue(v.measured().contains("skew: no aligned checkpoint completed in the window"), v.measured());
    }

    @Test
    void unalignedDurationGrowingWithTheBacklogIsAMiss() {
        List<ScenarioRun> runs = Fixtures.goodGrid();
        replace(runs, Fixtures.run(ScenarioRun.REFERENCE, Backpressure.HEAVY, true, Mode.UNALIGNED, 1_000, 9, 120_000, 4_000, 50));
        Targets.Verdict v = judge(runs).get(2);
        assertEquals("MISSED", v.status());
        assertTrue(v.measured().contains("unaligned x2.25"), v.measured());
    }

    @Test
    void aBacklogThatDidNotGrowTenfoldLeavesTheTargetUndecided() {
        List<ScenarioRun> runs = Fixtures.goodGrid();
        // Light backlog 4,000 records at 5,000 records/s: 0.8 s; heavy 4 s: only fivefold, so the
        // run cannot tell how unaligned checkpoints fare while the backlog grows tenfold.
        replace(runs, Fixtures.run(ScenarioRun.REFERENCE, Backpressure.LIGHT, true, Mode.ALIGNED, 5_000, 800, 0, 4_000, 20));
        Targets.Verdict v = judge(runs).get(2);
        assertEquals("undecided", v.status());
        assertTrue(v.measured().contains("backlog x5.00 (below x9.50: the premise did not hold)"), v.measured());
    }

    @Test
    void aMissThatDoesNotDependOnThePremiseStaysAMiss() {
        List<ScenarioRun> runs = Fixtures.goodGrid();
        replace(runs, Fixtures.run(ScenarioRun.REFERENCE, Backpressure.LIGHT, true, Mode.ALIGNED, 5_000, 800, 0, 4_000, 20));
        replace(runs, Fixtures.run(ScenarioRun.REFERENCE, Backpressure.HEAVY, true, Mode.UNALIGNED, 1_000, 9, 120_000, 4_000, 50));
        Targets.Verdict v = judge(runs).get(2);
        assertEquals("MISSED", v.status());
        assertTrue(v.measured().contains("unaligned x2.25"), v.measured());
    }

    @Test
    void anAlignedDurationOffItsPredictionByMoreThanAQuarterIsAMiss() {
        List<ScenarioRun> runs = Fixtures.goodGrid();
        replace(runs, Fixtures.run(ScenarioRun.REFERENCE, Backpressure.LIGHT, true, Mode.ALIGNED, 10_000, 520, 0, 4_000, 20));
        Targets.Verdict v = judge(runs).get(2);
        assertEquals("MISSED", v.status());
        assertTrue(v.measured().contains("skew light aligned measured/predicted 1.30"), v.measured());
    }

    @Test
    void aSlowerReferenceEngineIsAMiss() {
        List<ScenarioRun> runs = Fixtures.goodGrid();
        replace(runs, Fixtures.run(ScenarioRun.FLINK, Backpressure.NONE, true, Mode.NONE, 2_000_000, 0, 0, -1, 0));
        Targets.Verdict v = judge(runs).get(3);
        assertEquals("MISSED", v.status());
        assertTrue(v.measured().contains("= 0.50"), v.measured());
    }

    @Test
    void aTargetWithoutItsScenariosIsNotMeasuredRatherThanMet() {
        List<ScenarioRun> runs = Fixtures.goodGrid();
        runs.removeIf(r -> r.engine().equals(ScenarioRun.FLINK));
        Targets.Verdict v = judge(runs).get(3);
        assertEquals(Optional.empty(), v.met());
        assertEquals("not measured", v.status());
    }

    @Test
    void anAlternatingCheckpointFarAboveTimeoutPlusUnalignedIsAMiss() {
        List<ScenarioRun> runs = Fixtures.goodGrid();
        replace(runs, Fixtures.run(ScenarioRun.REFERENCE, Backpressure.HEAVY, true, Mode.ALTERNATING, 1_000, 100, 120_000, 4_000, 50));
        Targets.Verdict v = judge(runs).get(4);
        assertEquals("MISSED", v.status(), v.measured());
        assertTrue(v.measured().contains("skew: 100 ms"), v.measured());
    }

    @Test
    void alternatingThatPersistsInFlightDataTooOftenIsAMiss() {
        List<ScenarioRun> runs = Fixtures.goodGrid();
        replace(runs, Fixtures.run(ScenarioRun.REFERENCE, Backpressure.NONE, false, Mode.ALTERNATING, 980_000, 3, 3_000, 100, 50));
        Targets.Verdict v = judge(runs).get(5);
        assertEquals("MISSED", v.status(), v.measured());
        assertTrue(v.measured().startsWith("0.0% of 50"), v.measured());
    }
}
