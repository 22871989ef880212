package dev.consistentcut.bench.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.bench.Backpressure;
import dev.consistentcut.bench.JobParams;
import dev.consistentcut.bench.Mode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jfree.data.category.DefaultCategoryDataset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(30)
class SweepChartTest {

    private static final SweepPlan.Point LIGHT = new SweepPlan.Point(JobParams.DEMO, Backpressure.LIGHT);
    private static final SweepPlan.Point NONE = new SweepPlan.Point(JobParams.DEMO, Backpressure.NONE);

    private static List<SweepMain.Row> rows() {
        return List.of(
                new SweepMain.Row(LIGHT, Mode.ALIGNED, 9, 500, 450, 0, Double.NaN, 10_000),
                new SweepMain.Row(LIGHT, Mode.UNALIGNED, 40, 20, 30, 5_000, 4_000, 10_000),
                new SweepMain.Row(NONE, Mode.ALIGNED, 50, Double.NaN, 3, 0, Double.NaN, 2e6),
                new SweepMain.Row(NONE, Mode.UNALIGNED, 50, Double.NaN, 2, Double.NaN, 100, 2e6));
    }

    @Test
    void eachRatioIsMeasuredOverPredictedAndAPointWithoutAPredictionHasNone() {
        DefaultCategoryDataset d = SweepChart.dataset(rows());
        assertEquals(0.9, d.getValue(SweepChart.ALIGNED_DURATION, LIGHT.name()).doubleValue(), 1e-9);
        assertEquals(0.8, d.getValue(SweepChart.UNALIGNED_PERSISTED, LIGHT.name()).doubleValue(), 1e-9);
        assertEquals(1.5, d.getValue(SweepChart.UNALIGNED_DURATION, LIGHT.name()).doubleValue(), 1e-9);
        assertNull(d.getValue(SweepChart.ALIGNED_DURATION, NONE.name()));
        assertNull(d.getValue(SweepChart.UNALIGNED_PERSISTED, NONE.name()));
        assertEquals(List.of(LIGHT.name(), NONE.name()), d.getColumnKeys(), "every point keeps its place");
    }

    @Test
    void writesAPng(@TempDir Path dir) throws Exception {
        Path png = dir.resolve("sweep.png");
        SweepChart.write(rows(), "test machine", png);
        byte[] head = Files.readAllBytes(png);
        assertTrue(head.length > 1_000 && head[1] == 'P' && head[2] == 'N' && head[3] == 'G');
    }
}
