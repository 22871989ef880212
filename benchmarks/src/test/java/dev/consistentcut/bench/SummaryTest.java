package dev.consistentcut.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class SummaryTest {

    private static Summary find(List<Summary> rows, String engine, Backpressure b, Mode m) {
        return rows.stream().filter(s -> s.engine().equals(engine) && s.scenario().equals(new Scenario(b, true, m)))
                .findFirst().orElseThrow();
    }

    @Test
    void alignedPredictionIsTheBacklogOverTheDrainRate() {
        Summary s = find(Fixtures.summaries(Fixtures.goodGrid()), ScenarioRun.REFERENCE, Backpressure.HEAVY, Mode.ALIGNED);
        assertEquals(4_000, s.backlogRecordsP50());
        assertEquals(4_000 / 1_000.0 * 1000, s.predictedP50Ms(), 1e-9, "4,000 records at 1,000 records/s");
        assertEquals(1.0, s.ratio(), 1e-9);
    }

    @Test
    void flinksAlignedBacklogIsEstimatedFromItsUnalignedTwin() {
        Summary s = find(Fixtures.summaries(Fixtures.goodGrid()), ScenarioRun.FLINK, Backpressure.HEAVY, Mode.ALIGNED);
        // The unaligned twin persisted 192,000 bytes = 6,000 records of 32 bytes; at 1,000 records/s: 6 s.
        assertEquals(6_000, s.backlogRecordsP50(), 1e-9);
        assertEquals(6_000, s.predictedP50Ms(), 1e-9);
        assertTrue(s.predictionBasis().contains("unaligned"), s.predictionBasis());
    }

    @Test
    void unalignedPredictionIsPersistedBytesOverBandwidthPlusTravel() {
        Summary s = find(Fixtures.summaries(Fixtures.goodGrid()), ScenarioRun.REFERENCE, Backpressure.HEAVY, Mode.UNALIGNED);
        // 120,000 bytes at 100 MB/s is 1.2 ms, plus 0.6 ms of barrier travel under heavy backpressure.
        assertEquals(1.8, s.predictedP50Ms(), 1e-9);
        Summary flink = find(Fixtures.summaries(Fixtures.goodGrid()), ScenarioRun.FLINK, Backpressure.HEAVY, Mode.UNALIGNED);
        assertTrue(Double.isNaN(flink.predictedP50Ms()), "no model of Flink's fixed per-checkpoint costs, so no prediction");
    }

    @Test
    void roundsArePooledAndTheirRangeKept() {
        Scenario s = new Scenario(Backpressure.NONE, true, Mode.NONE);
        ScenarioRun merged = ScenarioRun.merge(List.of(
                new ScenarioRun(ScenarioRun.REFERENCE, s, 4, 400_000, List.of(), 0),
                new ScenarioRun(ScenarioRun.REFERENCE, s, 4, 1_200_000, List.of(), 1)));
        assertEquals(200_000, merged.throughput(), 1e-9, "1.6 M records in 8 s");
        assertEquals(List.of(100_000.0, 300_000.0), merged.roundThroughputs());
        assertEquals(1, merged.failedCheckpoints());
        assertEquals("200,000 (100,000 to 300,000)", Report.throughput(merged));
    }

    @Test
    void theCpuPerRecordIsTheRoundsCpuOverTheirRecords() {
        Scenario s = new Scenario(Backpressure.NONE, true, Mode.NONE);
        ScenarioRun merged = ScenarioRun.merge(List.of(
                new ScenarioRun(ScenarioRun.REFERENCE, s, 4, 400_000, List.of(), 0, 2.0),
                new ScenarioRun(ScenarioRun.REFERENCE, s, 4, 1_200_000, List.of(), 0, 6.0)));
        assertEquals(5.0, merged.cpuMicrosPerRecord(), 1e-9, "8 CPU seconds over 1.6 M records");
        assertTrue(Double.isNaN(new ScenarioRun(ScenarioRun.FLINK, s, 4, 1, List.of(), 0).cpuMicrosPerRecord()),
                "a run without a CPU figure has none per record");
    }

    @Test
    void roundsOfDifferentCellsAreNotMerged() {
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> ScenarioRun.merge(List.of(
                        new ScenarioRun(ScenarioRun.REFERENCE, new Scenario(Backpressure.NONE, true, Mode.NONE), 4, 1, List.of(), 0),
                        new ScenarioRun(ScenarioRun.FLINK, new Scenario(Backpressure.NONE, true, Mode.NONE), 4, 1, List.of(), 0))));
        assertTrue(e.getMessage().contains("cannot merge flink"), e.getMessage());
    }

    @Test
    void anAlternatingCheckpointWithoutABacklogSampleHasNoEstimateNotANegativeOne() {
        // Two checkpoints, the first with 100 records queued at its trigger, the second triggered
        // before the sampler's first sample (-1): the prediction is the first one's, 0.1 ms at
        // 1,000,000 records/s, not the median with -1 / throughput.
        Scenario s = new Scenario(Backpressure.NONE, true, Mode.ALTERNATING);
        ScenarioRun run = new ScenarioRun(ScenarioRun.REFERENCE, s, 1, 1_000_000, List.of(
                new CheckpointSample(1, 3, 1, 0, 0, 0, 20_000, 100),
                new CheckpointSample(2, 3, 1, 0, 0, 0, 20_000, -1)), 0);
        Summary summary = Summary.of(run, Fixtures.CALIBRATION, List.of(run));
        assertEquals(0.1, summary.predictedP50Ms(), 1e-9);
    }

    @Test
    void withoutCheckpointsThereIsNothingToPredict() {
        Summary s = find(Fixtures.summaries(Fixtures.goodGrid()), ScenarioRun.REFERENCE, Backpressure.NONE, Mode.NONE);
        assertTrue(Double.isNaN(s.predictedP50Ms()));
        assertTrue(Double.isNaN(s.durationP50Ms()));
        assertEquals(1_000_000, s.run().throughput(), 1e-9);
    }
}
