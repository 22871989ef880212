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
    void withoutCheckpointsThereIsNothingToPredict() {
        Summary s = find(Fixtures.summaries(Fixtures.goodGrid()), ScenarioRun.REFERENCE, Backpressure.NONE, Mode.NONE);
        assertTrue(Double.isNaN(s.predictedP50Ms()));
        assertTrue(Double.isNaN(s.durationP50Ms()));
        assertEquals(1_000_000, s.run().throughput(), 1e-9);
    }
}
