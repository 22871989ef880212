package dev.consistentcut.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ReportTest {

    private static final Machine MACHINE = new Machine("Test CPU", 2, "24 GB RAM", "Linux 6", "OpenJDK 17");

    @Test
    void csvHasTheHeaderAndOneRowPerRunWithEveryField() {
        List<Summary> rows = Fixtures.summaries(Fixtures.goodGrid());
        String[] lines = Report.csv(rows).split("\n");
        assertEquals(rows.size() + 1, lines.length);
        assertEquals(String.join(",", Report.CSV_HEADER), lines[0]);
        for (int i = 1; i < lines.length; i++) {
            assertEquals(Report.CSV_HEADER.size(), lines[i].split(",", -1).length, lines[i]);
        }
        assertTrue(lines[6].startsWith("reference,heavy,on,aligned,10.0000,1000.00,5,0,4000.00,"), lines[6]);
    }

    @Test
    void markdownShowsMachineTargetsBothEnginesAndTheirRatios() {
        List<Summary> rows = Fixtures.summaries(Fixtures.goodGrid());
        String md = Report.markdown(new Report.Inputs("Full run", MACHINE, 2.5, 2.0, Fixtures.CALIBRATION, rows,
                new Targets(rows).judge(),
                List.of(new Report.MicroResult("KeyedStateSnapshotBenchmark.snapshot", "keys=1000", 68.4, 1.2, "us/op")),
                "benchmarks/results/checkpoints.png"));
        assertTrue(md.contains("Machine: Test CPU, 2 cores, 24 GB RAM"), md);
        assertTrue(md.contains("other work shared the machine"), "a load average above 1 is pointed out");
        assertTrue(md.contains("![Checkpoint duration and persisted bytes against backpressure](benchmarks/results/checkpoints.png)"));
        assertTrue(md.contains("| heavy | on | aligned | 1,000 | 5.00 | 5 | 4,000 / 4,000 / 4,000 |"), md);
        // Reference / Flink under heavy backpressure, aligned: CPU 5 us / 10 us per record, 4,000 ms / 6,000 ms.
        assertTrue(md.contains("| heavy | on | aligned | 1.00 | 0.500 | 0.667 |  |"), md);
        // Unaligned persisted bytes: 120,000 / 192,000.
        assertTrue(md.contains("| heavy | on | unaligned | 1.00 | 0.500 | 0.250 | 0.625 |"), md);
        assertTrue(md.contains("| KeyedStateSnapshotBenchmark.snapshot | keys=1000 | 68.4 | 1.20 | us/op |"), md);
    }

    @Test
    void flinkWithObjectReuseHasItsOwnTableAndRatio() {
        List<ScenarioRun> runs = new java.util.ArrayList<>(Fixtures.goodGrid());
        runs.add(Fixtures.run(ScenarioRun.FLINK_REUSE, Backpressure.NONE, true, Mode.NONE, 1_250_000, 0, 0, -1, 0));
        List<Summary> rows = Fixtures.summaries(runs);
        String md = Report.markdown(new Report.Inputs("Full run", MACHINE, 0.5, 0.5, Fixtures.CALIBRATION, rows,
                new Targets(rows).judge(), List.of(), null));
        assertTrue(md.contains("with object reuse, no backpressure and no checkpoints only"), md);
        // The engine's 1,000,000 records/s over Flink's 900,000 and over Flink with object reuse's 1,250,000.
        assertTrue(md.contains("| none | on | none | 1.11 | 0.500 |  |  | 0.800 |"), md);
        assertTrue(Report.csv(rows).contains("\nflink-reuse,none,on,none,"), "the CSV has the row");
    }

    @Test
    void theEngineIsSetAgainstThePhysicalLimitsOfTheSameRun() {
        List<Summary> rows = Fixtures.summaries(Fixtures.goodGrid());
        List<Report.MicroResult> micro = List.of(
                new Report.MicroResult(Report.PIPELINE_LIMIT, "", 2.0, 0.1, "ops/us"),
                new Report.MicroResult(Report.RAW_HAND_OFF, "capacity=16", 1.0, 0.1, "ops/us"),
                new Report.MicroResult(Report.RAW_HAND_OFF, "capacity=1000", 4.0, 0.1, "ops/us"));
        String md = Report.limits(rows, micro);
        // The fixture's engine runs 1,000,000 records/s without backpressure: half the pipeline's
        // 2 records per microsecond, a quarter of the hand-off's 4 at the job's channel depth.
        assertTrue(md.contains("| reference | on | 1,000,000 | 2,000,000 | 0.500 | 4,000,000 | 0.250 |"), md);
        assertTrue(md.contains("within 3x of the single-thread pipeline (skew on): met."), md);
        List<Report.MicroResult> fastPipeline = List.of(
                new Report.MicroResult(Report.PIPELINE_LIMIT, "", 3.5, 0.1, "ops/us"), micro.get(2));
        assertTrue(Report.limits(rows, fastPipeline).contains("(skew on): missed."), "1,000,000 records/s is below 3,500,000 / 3");
        assertEquals("", Report.limits(rows, micro.subList(0, 2)), "no hand-off at the job's channel depth: no table");
        assertEquals("", Report.limits(rows, List.of()), "no microbenchmarks: no table");
    }

    @Test
    void numbersAndBytesAreRoundedForPeople() {
        assertEquals("1,234,567", Report.formatNumber(1_234_567.4));
        assertEquals("123", Report.formatNumber(123.4));
        assertEquals("12.3", Report.formatNumber(12.34));
        assertEquals("1.23", Report.formatNumber(1.234));
        assertEquals("0.0123", Report.formatNumber(0.01234));
        assertEquals("n/a", Report.formatNumber(Double.NaN));
        assertEquals("512 B", Report.formatBytes(512));
        assertEquals("1.50 KB", Report.formatBytes(1536));
        assertEquals("2.00 MB", Report.formatBytes(2 * 1024 * 1024));
    }
}
