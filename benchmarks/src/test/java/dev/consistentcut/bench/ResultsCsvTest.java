package dev.consistentcut.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(10)
class ResultsCsvTest {

    @TempDir
    Path dir;

    @Test
    void aRowReadBackHasTheFiguresReportWrote() throws IOException {
        List<Summary> rows = Fixtures.summaries(Fixtures.goodGrid());
        Path f = dir.resolve("results.csv");
        Files.writeString(f, Report.csv(rows));
        List<ResultsCsv.Row> read = ResultsCsv.read(f);
        assertEquals(rows.size(), read.size());
        for (int i = 0; i < rows.size(); i++) {
            ResultsCsv.Row expected = ResultsCsv.Row.of(rows.get(i));
            ResultsCsv.Row r = read.get(i);
            assertEquals(expected.engine(), r.engine());
            assertEquals(expected.scenario(), r.scenario());
            assertSame(expected.durationP50Ms(), r.durationP50Ms(), r + " duration");
            assertSame(expected.persistedBytesP50(), r.persistedBytesP50(), r + " persisted");
        }
        // Heavy backpressure, skew, unaligned: 5 ms, 120,000 bytes; no checkpoints: NaN (an empty field).
        assertEquals(new ResultsCsv.Row(ScenarioRun.REFERENCE, new Scenario(Backpressure.HEAVY, true, Mode.UNALIGNED), 5, 120_000),
                read.get(6));
        assertTrue(Double.isNaN(read.get(0).durationP50Ms()), read.get(0).toString());
    }

    /** Report writes six significant digits. */
    private static void assertSame(double expected, double actual, String what) {
        if (Double.isNaN(expected)) {
            assertTrue(Double.isNaN(actual), what + ": expected NaN, got " + actual);
        } else {
            assertEquals(expected, actual, Math.abs(expected) * 1e-5, what);
        }
    }

    @Test
    void columnsAreFoundByNameAndQuotedFieldsAreRead() throws IOException {
        Path f = dir.resolve("results.csv");
        Files.writeString(f, """
                mode,persisted_bytes_p50,extra,engine,skew,backpressure,duration_p50_ms
                alternating,1024,"a, b",flink,off,light,25.0
                """);
        assertEquals(List.of(new ResultsCsv.Row(ScenarioRun.FLINK, new Scenario(Backpressure.LIGHT, false, Mode.ALTERNATING), 25, 1024)),
                ResultsCsv.read(f));
    }

    @Test
    void aMissingFileIsNoSuchFile() {
        assertThrows(NoSuchFileException.class, () -> ResultsCsv.read(dir.resolve("none.csv")));
    }

    /** {@code fields} and empty fields after them, as many as the header has. */
    private static String row(String fields) {
        return fields + ",".repeat(Report.CSV_HEADER.size() - fields.split(",", -1).length);
    }

    @Test
    void aGarbledFileIsReportedWithFileLineAndField() throws IOException {
        Path f = dir.resolve("results.csv");
        String header = String.join(",", Report.CSV_HEADER);
        Files.writeString(f, header + "\n" + row("reference,heavy,on,aligned,10,1000,5,0,fast") + "\n");
        ResultsCsv.FormatException e = assertThrows(ResultsCsv.FormatException.class, () -> ResultsCsv.read(f));
        assertTrue(e.getMessage().contains("results.csv line 2: duration_p50_ms is not a number: 'fast'"), e.getMessage());

        Files.writeString(f, header + "\nreference,heavy,on,aligned,10\n");
        e = assertThrows(ResultsCsv.FormatException.class, () -> ResultsCsv.read(f));
        assertTrue(e.getMessage().contains("line 2: 5 fields, the header has " + Report.CSV_HEADER.size()), e.getMessage());

        Files.writeString(f, header + "\n" + row("reference,heavy,on,sideways,10,1000,5,0,1") + "\n");
        e = assertThrows(ResultsCsv.FormatException.class, () -> ResultsCsv.read(f));
        assertTrue(e.getMessage().contains("mode 'sideways'"), e.getMessage());

        Files.writeString(f, "\"Benchmark\",\"Mode\",\"Score\"\n\"x.Y.z\",\"avgt\",1.5\n");
        e = assertThrows(ResultsCsv.FormatException.class, () -> ResultsCsv.read(f));
        assertTrue(e.getMessage().contains("no column 'engine'"), e.getMessage());

        Files.writeString(f, "");
        e = assertThrows(ResultsCsv.FormatException.class, () -> ResultsCsv.read(f));
        assertTrue(e.getMessage().contains("empty"), e.getMessage());
    }

    @Test
    void theCommittedResultsAreReadable() throws IOException {
        Path committed = Path.of("results", "results.csv"); // the module's directory is the working directory
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isRegularFile(committed), "no committed results.csv here");
        List<ResultsCsv.Row> rows = ResultsCsv.read(committed);
        assertTrue(rows.stream().anyMatch(r -> r.engine().equals(ScenarioRun.REFERENCE)), rows.toString());
        assertTrue(rows.stream().anyMatch(r -> r.engine().equals(ScenarioRun.FLINK)), rows.toString());
    }
}
