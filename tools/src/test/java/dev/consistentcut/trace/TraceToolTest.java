package dev.consistentcut.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceToolTest {

    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return TraceTool.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void badUsageExitsTwoNamingTheProblem() {
        assertEquals(2, run());
        assertTrue(err().contains("Usage:"), err());
        assertUsageError("unknown command 'replay'", "replay");
        assertUsageError("record needs --out FILE", "record");
        assertUsageError("--records needs a number, got 'many'", "record", "--out", "x", "--records", "many");
        assertUsageError("--capacity must be >= 1, got 0", "record", "--out", "x", "--capacity", "0");
        assertUsageError("unknown job 'ring'", "record", "--out", "x", "--job", "ring");
        assertUsageError("unknown mode 'sideways'", "record", "--out", "x", "--mode", "sideways");
        assertUsageError("--runtime fibers: expected simulation or threads", "record", "--out", "x", "--runtime", "fibers");
        assertUsageError("unknown option '--colour'", "record", "--out", "x", "--colour");
        assertUsageError("--seed needs a value", "record", "--out", "x", "--seed");
        assertUsageError("record takes options only, got 'extra'", "record", "--out", "x", "extra");
        assertUsageError("validate needs --spec DIR and --tlc JAR", "validate", "t.ndjson");
        assertUsageError("to-tla needs TRACE and DIR", "to-tla", "t.ndjson");
        assertUsageError("--decline-probability must be within [0, 1], got 1.5", "record", "--out", "x",
                "--decline-probability", "1.5");
        assertUsageError("--decline-probability is a seeded choice of the simulation", "record", "--out", "x",
                "--runtime", "threads", "--decline-probability", "0.1");
    }

    @Test
    void declineProbabilityRecordsDeclinedCheckpoints() throws Exception {
        // DeclineCheckpoint of the correct engine: join seed 5 declines three checkpoints.
        Path trace = dir.resolve("d.ndjson");
        assertEquals(0, run("record", "--out", trace.toString(), "--job", "join", "--seed", "5", "--checkpoints", "6",
                "--decline-probability", "0.2", "--end-of-input"), err());
        assertTrue(Files.readAllLines(trace).stream().anyMatch(l -> l.contains("\"declinedBy\"")), "a declined checkpoint");
    }

    private void assertUsageError(String part, String... args) {
        err.reset();
        assertEquals(2, run(args), err());
        assertTrue(err().contains(part), "'" + err() + "' should contain '" + part + "'");
    }

    @Test
    void helpGoesToStandardOutputAndExitsZero() {
        assertEquals(0, run("--help"));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("record --out FILE"));
    }

    @Test
    void recordsARunAndConvertsItsTrace() throws Exception {
        Path trace = dir.resolve("t.ndjson");
        assertEquals(0, run("record", "--out", trace.toString(), "--job", "join", "--mode", "unaligned", "--records", "3"), err());
        long lines = Files.readAllLines(trace).size();
        assertTrue(out.toString(StandardCharsets.UTF_8).contains((lines - 1) + " events"), out.toString(StandardCharsets.UTF_8));
        assertEquals(0, run("to-tla", trace.toString(), dir.resolve("tla").toString()), err());
        String module = Files.readString(dir.resolve("tla/TraceData.tla"));
        assertTrue(module.contains("mode |-> \"unaligned\""), module);
    }
}
