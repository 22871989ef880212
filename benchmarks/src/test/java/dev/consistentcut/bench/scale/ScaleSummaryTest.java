package dev.consistentcut.bench.scale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScaleSummaryTest {

    private static ScaleRun run(String series, int records, int repeat, double wallMs, long lastBytes, double maxMs) {
        return new ScaleRun(new Point(series, records), repeat, wallMs, wallMs / 2, wallMs, 3, 1.0, maxMs, 3, lastBytes, 100, 3, lastBytes / 2.0, 0,
                "exactly-once holds");
    }

    private static List<ScaleRun> runs() {
        List<ScaleRun> runs = new ArrayList<>();
        // 10k: 1, 2, 3 s; 20k: 4 s three times; default pair: 20k 6-8 s, 160k 40-60 s.
        runs.add(run(Point.NO_DELAY, 10_000, 1, 1000, 10, 5));
        runs.add(run(Point.NO_DELAY, 10_000, 2, 3000, 30, 7));
        runs.add(run(Point.NO_DELAY, 10_000, 3, 2000, 20, 6));
        for (int r = 1; r <= 3; r++) {
            runs.add(run(Point.NO_DELAY, 20_000, r, 4000, 40, 9));
        }
        runs.add(run(Point.DEFAULT_DELAY, 20_000, 1, 6000, 1000, 1));
        runs.add(run(Point.DEFAULT_DELAY, 20_000, 2, 7000, 1100, 1));
        runs.add(run(Point.DEFAULT_DELAY, 20_000, 3, 8000, 1200, 1));
        runs.add(run(Point.DEFAULT_DELAY, 160_000, 1, 60000, 1500, 1));
        runs.add(run(Point.DEFAULT_DELAY, 160_000, 2, 40000, 1300, 1));
        runs.add(run(Point.DEFAULT_DELAY, 160_000, 3, 49000, 1400, 1));
        return runs;
    }

    @Test
    void timePerRecordIsWallOverBothSourcesRecords() {
        assertEquals(2_000_000.0 * 1000 / (2 * 10_000), run(Point.NO_DELAY, 10_000, 1, 2_000_000, 1, 1).timePerRecordUs(), 1e-9);
    }

    @Test
    void eachPointHasItsMedianAndRangeAndItsTimePerRecordRelativeToTheSeriesFirst() {
        ScaleSummary s = ScaleSummary.of(runs());
        List<ScaleSummary.Group> noDelay = s.series(Point.NO_DELAY);
        assertEquals(List.of(10_000, 20_000), noDelay.stream().map(g -> g.point().records()).toList());
        ScaleSummary.Group first = noDelay.get(0);
        assertEquals(new Spread(2000, 1000, 3000, 3), first.wallMs());
        assertEquals(100, first.timePerRecordUs().median(), 1e-9);
        assertEquals(1, first.relativeTimePerRecord(), 1e-9);
        assertEquals(7, first.durationMaxMs().max(), 1e-9);
        assertEquals(1, noDelay.get(1).relativeTimePerRecord(), 1e-9, "4 s for 40,000 records: 100 us, as at 10k");
        assertEquals(20_000, s.series(Point.DEFAULT_DELAY).get(0).point().records(), "each series is relative to its own first point");
        assertEquals(1, s.series(Point.DEFAULT_DELAY).get(0).relativeTimePerRecord(), 1e-9);
    }

    @Test
    void theRatiosAreOfTheMediansWithTheExtremePairsAsTheirRange() {
        ScaleSummary s = ScaleSummary.of(runs());
        Spread wall = s.wallRatio().orElseThrow();
        assertEquals(49000.0 / 7000, wall.median(), 1e-9);
        assertEquals(40000.0 / 8000, wall.min(), 1e-9);
        assertEquals(60000.0 / 6000, wall.max(), 1e-9);
        assertEquals(wall, s.cpuRatio().orElseThrow(), "CPU is half the wall time in these runs: the same ratios");
        Spread bytes = s.bytesRatio().orElseThrow();
        assertEquals(1400.0 / 1100, bytes.median(), 1e-9);
        assertEquals(1300.0 / 1200, bytes.min(), 1e-9);
        assertEquals(1500.0 / 1000, bytes.max(), 1e-9);
        Spread retained = s.retainedBytesRatio().orElseThrow();
        assertEquals(700.0 / 550, retained.median(), 1e-9, "the retained checkpoints' medians: half the last's in these runs");
        assertEquals(650.0 / 600, retained.min(), 1e-9);
    }

    @Test
    void withoutThePairThereIsNoRatio() {
        ScaleSummary s = ScaleSummary.of(runs().stream().filter(r -> r.point().series().equals(Point.NO_DELAY)).toList());
        assertTrue(s.wallRatio().isEmpty());
        assertTrue(s.bytesRatio().isEmpty());
        assertTrue(ScaleReport.markdown(s, List.of()).contains("| wall time | not measured | 10 | - |"));
    }

    @Test
    void aRatioIsWithinItsBoundOnlyIfItsGreatestIs() {
        assertEquals("within", ScaleReport.verdict(new Spread(5, 4, 10, 3), 10));
        assertEquals("undecided", ScaleReport.verdict(new Spread(5, 4, 10.5, 3), 10));
        assertEquals("above", ScaleReport.verdict(new Spread(12, 10.5, 13, 3), 10));
    }

    @Test
    void theReportShowsMediansWithTheirRangeAndTheRatiosVerdicts() {
        String md = ScaleReport.markdown(ScaleSummary.of(runs()), List.of("Machine: test."));
        assertTrue(md.contains("Machine: test."), md);
        assertTrue(md.contains("| 10,000 | 3 | 2.0 (1.0-3.0) | 100.00 (50.00-150.00) | 1.00 |"), md);
        assertTrue(md.contains("| wall time | 7.00 (5.00-10.00) | 10 | within |"), md);
        assertTrue(md.contains("| bytes the last checkpoint wrote | 1.27 (1.08-1.50) | 2 | within |"), md);
    }

    @Test
    void aSingleRepeatShowsNoRange() {
        assertEquals("2.00", new Spread(2, 2, 2, 1).format("%.2f"));
        assertEquals("2.00 (1.00-3.00)", Spread.of(new double[] {3, 1, 2, Double.NaN}).format("%.2f"));
    }

    @Test
    void theCsvHasOneRowPerRunUnderItsHeader() {
        String csv = ScaleRun.csv(runs());
        String[] lines = csv.split("\n");
        assertEquals(1 + runs().size(), lines.length);
        assertEquals(ScaleRun.CSV_HEADER, lines[0]);
        assertEquals("no-sink-delay,10000,1,1000.0,50.000,500.0,25.000,1000.0,3,1.000,5.000,3,10,100,3,5,0,exactly-once holds", lines[1]);
    }
}
