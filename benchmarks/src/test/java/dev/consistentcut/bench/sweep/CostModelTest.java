package dev.consistentcut.bench.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.bench.Backpressure;
import dev.consistentcut.bench.Calibration;
import dev.consistentcut.bench.JobParams;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CostModelTest {

    @Test
    void alignedIsTheInFlightRecordsOverTheSinkRate() {
        // 3 x 2 x 1,000 records drained at 10,000 records a second (light): 600 ms; heavy: 6 s.
        assertEquals(600, CostModel.alignedMs(JobParams.DEMO, Backpressure.LIGHT), 1e-9);
        assertEquals(6_000, CostModel.alignedMs(JobParams.DEMO, Backpressure.HEAVY), 1e-9);
        assertEquals(1_200, CostModel.alignedMs(new JobParams(4, 1_000, 0, 1_000), Backpressure.LIGHT), 1e-9,
                "twice the parallelism, twice the channels in flight");
        assertThrows(IllegalArgumentException.class, () -> CostModel.alignedMs(JobParams.DEMO, Backpressure.NONE),
                "without backpressure the channels are not full: the model does not apply");
    }

    @Test
    void unalignedPersistsEveryRecordInFlightOnceAndWritesItsBytes() {
        assertEquals(6_000, CostModel.unalignedPersistedRecords(JobParams.DEMO), 1e-9);
        Calibration c = new Calibration(6_000 * CostModel.PERSISTED_BYTES_PER_RECORD, Map.of(Backpressure.LIGHT, 0.5));
        assertEquals(1_000 + 0.5, CostModel.unalignedMs(JobParams.DEMO, Backpressure.LIGHT, c), 1e-9,
                "a second of writing at that bandwidth, plus the travel");
        assertTrue(CostModel.PERSISTED_BYTES_PER_RECORD > 8, "a record is more than its offset");
    }

    @Test
    void theBufferSizeAndTheKeysHaveNoTerm() {
        assertEquals(CostModel.alignedMs(JobParams.DEMO, Backpressure.LIGHT),
                CostModel.alignedMs(new JobParams(2, 1_000, 10, 100_000), Backpressure.LIGHT), 1e-9);
    }

    @Test
    void theSweepVariesOneSizeAtATimeAroundTheDemo() {
        List<JobParams> points = SweepPlan.points();
        assertEquals(JobParams.DEMO, points.get(0));
        assertEquals(points.size(), new HashSet<>(points).size(), "no point twice");
        for (JobParams p : points.subList(1, points.size())) {
            int differing = (p.parallelism() != 2 ? 1 : 0) + (p.capacity() != 1_000 ? 1 : 0)
                    + (p.bufferSize() != 0 ? 1 : 0) + (p.keys() != 1_000 ? 1 : 0);
            assertEquals(1, differing, p.name());
        }
    }
}
