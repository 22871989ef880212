package dev.consistentcut.bench.scale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The sweep against a launcher that answers with canned output, and its broken twins: a run
 * that exits non-zero or whose verdict is not exactly-once fails the sweep.
 */
class ScaleSweepTest {

    @TempDir
    Path tmp;

    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final List<List<String>> calls = new ArrayList<>();

    /** Answers every run with {@code verdict} and {@code exit}, the run at {@code records} alike or not. */
    private Launcher launcher(int badRecords, int badExit, String badVerdict) {
        return (args, work) -> {
            calls.add(args);
            Files.createDirectories(work);
            if (args.get(0).equals("inspect")) {
                return new Launcher.Launched(0, ScaleFixtures.INSPECT, "", 1_000_000, 500_000);
            }
            int records = Integer.parseInt(args.get(args.indexOf("--records") + 1));
            boolean bad = records == badRecords;
            return new Launcher.Launched(bad ? badExit : 0,
                    ScaleFixtures.runOutput(records, List.of(1.0, 3.0), bad ? badVerdict : RunOutput.EXACTLY_ONCE), "",
                    records * 100_000L, records * 50_000L);
        };
    }

    private ScaleMain.Options options() {
        return new ScaleMain.Options(Path.of("tools.jar"), tmp.resolve("out"), tmp.resolve("work"), 20_000, 2, "1g");
    }

    @Test
    void theSweepRunsEveryPointWithItsOptionsAndWritesItsResults() throws Exception {
        int exit = ScaleMain.run(options(), launcher(-1, 0, ""), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, exit, err.toString(StandardCharsets.UTF_8));
        List<List<String>> runs = calls.stream().filter(c -> c.get(0).equals("run")).toList();
        assertEquals(8, runs.size(), "(10k, 20k without delay, 20k and 160k with the defaults) x 2 repeats");
        assertEquals(List.of("run", "--mode", "unaligned", "--records", "10000", "--checkpoint-dir",
                tmp.resolve("work/run-001/checkpoints").toString(), "--sink-delay-us", "0"), runs.get(0));
        assertEquals(List.of("run", "--mode", "unaligned", "--records", "160000", "--checkpoint-dir",
                tmp.resolve("work/run-004/checkpoints").toString()), runs.get(3), "the pair runs with the default options");
        assertEquals(List.of("inspect", tmp.resolve("work/run-001/checkpoints").toString(), "--json"), calls.get(1));
        String csv = Files.readString(tmp.resolve("out/scale.csv"));
        assertEquals(9, csv.split("\n").length);
        assertTrue(csv.contains("default-sink-delay,160000,2,16000.0,50.000,8000.0,25.000,490.1,2,1.000,3.000,2,746880,7435,2,7940,0,exactly-once holds"), csv);
        assertTrue(Files.readString(tmp.resolve("out/scale.md")).contains("| wall time | 8.00 (8.00-8.00) | 10 | within |"));
        assertTrue(Files.size(tmp.resolve("out/scale.png")) > 0);
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("[8/8 "), "a progress line per run");
        assertFalse(Files.exists(tmp.resolve("work/run-001")), "a good run's files are deleted");
    }

    @Test
    void aRunWhoseVerdictIsNotExactlyOnceFailsTheSweep() throws Exception {
        int exit = ScaleMain.run(options(), launcher(20_000, 0, "VIOLATED"), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(1, exit);
        String message = err.toString(StandardCharsets.UTF_8);
        assertTrue(message.contains("FAILED: no-sink-delay 20000, repeat 1"), message);
        assertTrue(message.contains("verdict 'VIOLATED'"), message);
        assertFalse(Files.exists(tmp.resolve("out/scale.csv")), "no figures from a sweep with a wrong run");
        assertTrue(Files.exists(tmp.resolve("work/run-002")), "the failed run's files stay for a look");
    }

    @Test
    void aRunThatExitsNonZeroFailsTheSweepEvenWithTheRightVerdict() {
        ScaleSweep sweep = new ScaleSweep(launcher(10_000, 3, RunOutput.EXACTLY_ONCE), tmp, new PrintStream(err, true, StandardCharsets.UTF_8));
        ScaleSweep.Failure f = assertThrows(ScaleSweep.Failure.class, () -> sweep.run(new ScalePlan(10_000, 1)));
        assertTrue(f.getMessage().contains("exit code 3"), f.getMessage());
    }

    @Test
    void aRunWithoutItsReportFailsTheSweep() {
        Launcher crashed = (args, work) -> new Launcher.Launched(1, "", "OutOfMemoryError", 1, -1);
        ScaleSweep sweep = new ScaleSweep(crashed, tmp, new PrintStream(err, true, StandardCharsets.UTF_8));
        ScaleSweep.Failure f = assertThrows(ScaleSweep.Failure.class, () -> sweep.run(new ScalePlan(10_000, 1)));
        assertTrue(f.getMessage().contains("OutOfMemoryError"), f.getMessage());
    }

    @Test
    void thePlanStopsAtTheMaximumAndRepeatsRoundByRound() {
        List<Point> points = new ScalePlan(200_000, 2).points();
        assertEquals(2 * (5 + 2), points.size());
        assertEquals(new Point(Point.NO_DELAY, 10_000), points.get(7), "the second round starts again at the smallest point");
        assertEquals(8 + 2, new ScalePlan(2_000_000, 1).points().size());
        assertThrows(IllegalArgumentException.class, () -> new ScalePlan(9_999, 1));
        assertThrows(IllegalArgumentException.class, () -> new ScalePlan(10_000, 0));
    }

    @Test
    void optionsAreParsedAndBadOnesRejected() {
        ScaleMain.Options o = ScaleMain.Options.parse(new String[] {"--tools-jar", "t.jar", "--work", "w", "--max-records", "200000",
                "--repeats", "1"});
        assertEquals(200_000, o.maxRecords());
        assertEquals(1, o.repeats());
        assertEquals(2_000_000, ScaleMain.Options.parse(new String[] {"--tools-jar", "t.jar", "--work", "w"}).maxRecords());
        assertThrows(IllegalArgumentException.class, () -> ScaleMain.Options.parse(new String[] {"--repeats", "x", "--tools-jar", "t", "--work", "w"}));
        assertThrows(IllegalArgumentException.class, () -> ScaleMain.Options.parse(new String[] {"--work", "w"}));
        assertThrows(IllegalArgumentException.class, () -> ScaleMain.Options.parse(new String[] {"--tools-jar"}));
    }
}
