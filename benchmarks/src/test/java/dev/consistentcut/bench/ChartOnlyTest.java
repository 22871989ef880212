package dev.consistentcut.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The redraw command of ./benchmark.sh --chart-only: exit codes, messages, the subtitle. */
@Timeout(30)
class ChartOnlyTest {

    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @BeforeAll
    static void headless() {
        System.setProperty("java.awt.headless", "true");
    }

    private int run(String... args) {
        return ChartOnly.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void redrawsThePngFromTheCsvWithTheReportsSubtitle() throws Exception {
        Files.writeString(dir.resolve("results.csv"), Report.csv(Fixtures.summaries(Fixtures.goodGrid())));
        Files.writeString(dir.resolve("results.md"), """
                ### Full run, 2026-12-02

                Machine: AMD EPYC, 2 cores, 24 GB RAM, Linux 6.18, OpenJDK 17. One-minute load average 1.75.
                """);
        assertEquals(Optional.of("Full run, 2026-12-02, AMD EPYC, 2 cores"), ChartOnly.subtitle(dir.resolve("results.md")));
        assertEquals(0, run(dir.toString()), err());
        assertTrue(Files.size(dir.resolve("checkpoints.png")) > 1000);
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("checkpoints.png"));
        assertEquals("", err());
    }

    @Test
    void aMissingCsvExitsThreeWithoutAStackTrace() {
        assertEquals(3, run(dir.toString()));
        assertTrue(err().contains("results.csv: no such file"), err());
        assertFalse(err().contains("\tat "), err());
        assertEquals(3, run(dir.resolve("nowhere").toString()));
        assertTrue(err().contains("nowhere: no such file"), err());
    }

    @Test
    void aGarbledCsvExitsThreeNamingTheLineAndDebugAddsTheStackTrace() throws Exception {
        Files.writeString(dir.resolve("results.csv"), "engine,backpressure,skew,mode,duration_p50_ms,persisted_bytes_p50\n"
                + "reference,heavy,on,aligned,slow,0\n");
        assertEquals(3, run(dir.toString()));
        assertTrue(err().contains("results.csv line 2: duration_p50_ms is not a number: 'slow'"), err());
        assertFalse(err().contains("\tat "), err());
        assertFalse(Files.exists(dir.resolve("checkpoints.png")));
        assertEquals(3, run(dir.toString(), "--debug"));
        assertTrue(err().contains("\tat "), "--debug adds the stack trace");
    }

    @Test
    void badArgumentsExitTwoAndHelpExitsZero() {
        assertEquals(2, run("--fast"));
        assertTrue(err().contains("unknown argument '--fast'") && err().contains("Usage:"), err());
        assertEquals(2, run("a", "b"));
        assertTrue(err().contains("one directory only"), err());
        assertEquals(0, run("--help"));
        assertTrue(out.toString(StandardCharsets.UTF_8).startsWith("Usage: ChartOnly"));
    }
}
