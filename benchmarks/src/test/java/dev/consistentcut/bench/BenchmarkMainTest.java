package dev.consistentcut.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The command line only: running the benchmark is benchmark.sh's job, not a test's. */
class BenchmarkMainTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) throws Exception {
        return BenchmarkMain.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void optionsAreParsed() {
        BenchmarkMain.Options o = BenchmarkMain.parse(new String[] {"--quick", "--out", "x", "--engines", "reference", "--only", "heavy"});
        assertTrue(o.quick());
        assertEquals(Path.of("x"), o.out());
        assertEquals(List.of("reference"), o.engines());
        assertEquals("heavy", o.only());
        assertNull(BenchmarkMain.parse(new String[] {"--help"}));
    }

    @Test
    void anUnknownArgumentExitsTwoNamingIt() throws Exception {
        assertEquals(2, run("--fast"));
        String e = err.toString(StandardCharsets.UTF_8);
        assertTrue(e.contains("unknown argument '--fast'") && e.contains("Usage:"), e);
    }

    @Test
    void anUnknownEngineOrAMissingValueExitsTwo() throws Exception {
        assertEquals(2, run("--engines", "spark"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("unknown engine 'spark'"));
        assertEquals(2, run("--out"));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("--out needs a value"));
    }

    @Test
    void helpPrintsTheUsageAndExitsZero() throws Exception {
        assertEquals(0, run("--help"));
        assertTrue(out.toString(StandardCharsets.UTF_8).startsWith("Usage: BenchmarkMain"));
    }
}
