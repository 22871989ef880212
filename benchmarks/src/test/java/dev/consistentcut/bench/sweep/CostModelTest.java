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
    void aChannelHoldsItsCapacityLessHalfABuffer() {
        // Credits come back a whole buffer at a time: the buffer being read is half unread on average.
        assertEquals(1_000 - 125, CostModel.recordsPerChannel(JobParams.DEMO), 1e-9, "buffers of 250");
        assertEquals(995, CostModel.recordsPerChannel(new JobParams(2, 1_000, 10, 1_000)), 1e-9);
        assertEquals(500, CostModel.recordsPerChannel(new JobParams(2, 1_000, 1_000, 1_000)), 1e-9, "one buffer: half on average");
        assertEquals(999.5, CostModel.recordsPerChannel(new JobParams(2, 1_000, 1, 1_000)), 1e-9, "records one by one: full");
        assertEquals(900 - 150, CostModel.recordsPerChannel(new JobParams(2, 1_000, 300, 1_000)), 1e-9,
                "the capacity in whole buffers: three of 300");
    }

    @Test
    void alignedIsTheInFlightRecordsOverTheSinkRate() {
        // 3 x 2 x 875 records drained at 10,000 records a second (light): 525 ms; heavy: 5.25 s.
        assertEquals(525, CostModel.alignedMs(JobParams.DEMO, Backpressure.LIGHT), 1e-9);
        assertEquals(5_250, CostModel.alignedMs(JobParams.DEMO, Backpressure.HEAVY), 1e-9);
        assertEquals(1_050, CostModel.alignedMs(new JobParams(4, 1_000, 0, 1_000), Backpressure.LIGHT), 1e-9,
                "twice the parallelism, twice the channels in flight");
        assertThrows(IllegalArgumentException.class, () -> CostModel.alignedMs(JobParams.DEMO, Backpressure.NONE),
                "without backpressure the channels are not full: the model does not apply");
    }

    @Test
    void unalignedPersistsEveryRecordInFlightOnceAndWritesItsBytes() {
        assertEquals(5_250, CostModel.unalignedPersistedRecords(JobParams.DEMO), 1e-9);
        Calibration c = new Calibration(5_250 * CostModel.PERSISTED_BYTES_PER_RECORD, Map.of(Backpressure.LIGHT, 0.5));
        assertEquals(1_000 + 0.5, CostModel.unalignedMs(JobParams.DEMO, Backpressure.LIGHT, c), 1e-9,
                "a second of writing at that bandwidth, plus the travel");
        assertTrue(CostModel.PERSISTED_BYTES_PER_RECORD > 8, "a record is more than its offset");
    }

    @Test
    void theKeysHaveNoTermAndTheBufferSizeHasOne() {
        assertEquals(CostModel.alignedMs(JobParams.DEMO, Backpressure.LIGHT),
                CostModel.alignedMs(new JobParams(2, 1_000, 0, 100_000), Backpressure.LIGHT), 1e-9);
        assertTrue(CostModel.alignedMs(new JobParams(2, 1_000, 10, 1_000), Backpressure.LIGHT)
                > CostModel.alignedMs(JobParams.DEMO, Backpressure.LIGHT), "smaller buffers: fuller channels");
    }

    @Test
    void theSweepVariesOneSizeAtATimeAroundTheDemoThenTheBackpressure() {
        List<SweepPlan.Point> points = SweepPlan.points();
        assertEquals(new SweepPlan.Point(JobParams.DEMO, Backpressure.LIGHT), points.get(0));
        assertEquals(points.size(), new HashSet<>(points).size(), "no point twice");
        assertEquals(points.size(), points.stream().map(SweepPlan.Point::name).distinct().count(), "no name twice");
        for (SweepPlan.Point point : points.subList(1, points.size())) {
            JobParams p = point.params();
            int differing = (p.parallelism() != 2 ? 1 : 0) + (p.capacity() != 1_000 ? 1 : 0)
                    + (p.bufferSize() != 0 ? 1 : 0) + (p.keys() != 1_000 ? 1 : 0)
                    + (point.backpressure() != Backpressure.LIGHT ? 1 : 0);
            assertEquals(1, differing, point.name());
        }
        assertTrue(points.contains(new SweepPlan.Point(JobParams.DEMO, Backpressure.HEAVY)));
        assertTrue(points.contains(new SweepPlan.Point(JobParams.DEMO, Backpressure.NONE)));
    }
}
