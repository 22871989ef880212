package dev.consistentcut.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.cli.MainTest.Outcome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every bad input a durable job can meet answered cleanly: an I/O problem exits 3 with one line naming
 * the path and the cause, bad usage exits 2, nothing the user wrote is overwritten without
 * {@code --force}, no stack trace without {@code --debug}, {@code --help} for every command, and
 * {@code --version}. Root ignores file permissions (tests run as root here), so an unwritable
 * place is a path under a regular file: creating anything there fails for every user.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CliErrorsTest {

    @TempDir
    Path tmp;

    private static void assertClean(Outcome o) {
        assertFalse(o.err().contains("\tat ") || o.out().contains("\tat "), "no stack trace: " + o.err());
    }

    private Path aFile() throws IOException {
        return Files.writeString(tmp.resolve("a-file"), "x");
    }

    @ParameterizedTest
    @ValueSource(strings = {"run", "resume", "inspect", "trace", "trace record", "trace to-tla", "trace validate"})
    void everyCommandHasHelp(String command) {
        Outcome o = MainTest.cli((command + " --help").split(" "));
        assertEquals(0, o.code(), o.err());
        assertTrue(o.out().startsWith("Usage: "), o.out());
    }

    @Test
    void versionNamesTheFormats() {
        Outcome o = MainTest.cli("--version");
        assertEquals(0, o.code());
        assertTrue(o.out().startsWith("consistent-cut tools "), o.out());
        assertTrue(o.out().contains("checkpoint format versions 1-2, job manifest version 1"), o.out());
    }

    @Test
    void theUsageListsEveryCommand() {
        Outcome o = MainTest.cli("nonsense");
        assertEquals(2, o.code());
        assertTrue(o.err().startsWith("error: unknown command 'nonsense': expected run, resume, inspect, verify-output or trace"), o.err());
        for (String c : new String[] {" run ", " resume DIR", " inspect DIR", " trace record"}) {
            assertTrue(o.err().contains(c), c + " in " + o.err());
        }
    }

    @Test
    void anUncreatableCheckpointDirIsAnIoErrorNamingIt() throws IOException {
        Path under = aFile().resolve("checkpoints");
        Outcome o = MainTest.cli("run", "--mode", "aligned", "--runtime", "simulation", "--checkpoint-dir", under.toString());
        assertEquals(3, o.code(), o.err());
        assertTrue(o.err().startsWith("error: --checkpoint-dir " + under + ": cannot be created: "), o.err());
        assertEquals(1, o.err().lines().count(), "one line: " + o.err());
        Outcome debug = MainTest.cli("run", "--mode", "aligned", "--runtime", "simulation", "--checkpoint-dir",
                under.toString(), "--debug");
        assertEquals(3, debug.code());
        assertTrue(debug.err().contains("\tat "), "--debug adds the stack trace");
    }

    @Test
    void traceRecordNeverOverwritesAndNamesUnwritablePlaces() throws IOException {
        Path out = Files.writeString(tmp.resolve("mine.ndjson"), "my notes");
        Outcome exists = MainTest.cli("trace", "record", "--out", out.toString(), "--records", "2");
        assertEquals(2, exists.code());
        assertTrue(exists.err().contains(out + " exists; add --force to overwrite it"), exists.err());
        assertEquals("my notes", Files.readString(out));
        Outcome forced = MainTest.cli("trace", "record", "--out", out.toString(), "--records", "2", "--force");
        assertEquals(0, forced.code(), forced.err());

        Outcome dir = MainTest.cli("trace", "record", "--out", tmp.toString(), "--records", "2");
        assertEquals(3, dir.code());
        assertTrue(dir.err().contains(tmp + ": is a directory"), dir.err());

        Path unwritable = aFile().resolve("t.ndjson");
        Outcome ro = MainTest.cli("trace", "record", "--out", unwritable.toString(), "--records", "2");
        assertEquals(3, ro.code(), ro.err());
        assertTrue(ro.err().contains("cannot write trace " + unwritable), ro.err());
        assertClean(exists);
        assertClean(dir);
        assertClean(ro);
    }

    @Test
    void traceToTlaNamesAMissingTraceAnUnwritableDirAndNeverOverwrites() throws IOException {
        Outcome missing = MainTest.cli("trace", "to-tla", tmp.resolve("none.ndjson").toString(), tmp.toString());
        assertEquals(3, missing.code());
        assertTrue(missing.err().contains(tmp.resolve("none.ndjson") + ": no such file"), missing.err());

        Path trace = tmp.resolve("t.ndjson");
        assertEquals(0, MainTest.cli("trace", "record", "--out", trace.toString(), "--records", "2").code());
        Path unwritable = aFile().resolve("tla");
        Outcome ro = MainTest.cli("trace", "to-tla", trace.toString(), unwritable.toString());
        assertEquals(3, ro.code(), ro.err());
        assertTrue(ro.err().contains(unwritable.toString()), ro.err());

        Path out = Files.createDirectory(tmp.resolve("tla-out"));
        Files.writeString(out.resolve("TraceData.tla"), "my module");
        Outcome exists = MainTest.cli("trace", "to-tla", trace.toString(), out.toString());
        assertEquals(2, exists.code());
        assertEquals("my module", Files.readString(out.resolve("TraceData.tla")));
        assertEquals(0, MainTest.cli("trace", "to-tla", "--force", trace.toString(), out.toString()).code());
        assertClean(missing);
        assertClean(ro);
    }

    @Test
    void validateWithoutTlcOrSpecIsAnEnvironmentError() {
        Outcome o = MainTest.cli("trace", "validate", "--spec", tmp.toString(), "--tlc", tmp.resolve("tlc.jar").toString(),
                "x.ndjson");
        assertEquals(3, o.code());
        assertTrue(o.err().contains("no TraceValidation.tla in spec directory " + tmp), o.err());
    }

    @Test
    void aLongRunIsAnnouncedUpFront() throws Exception {
        CliOptions o = CliOptions.parse(new String[] {"--mode", "aligned", "--records", "700000"}, 0,
                dev.consistentcut.barrier.BarrierHandlers::byName, true);
        assertEquals("this run takes at least 70 s (700000 records x 2 sources x 50 us at the sink)", o.checkFeasible());
        CliOptions sim = CliOptions.parse(new String[] {"--mode", "aligned", "--records", "700000", "--runtime",
                "simulation"}, 0, dev.consistentcut.barrier.BarrierHandlers::byName, true);
        assertEquals(null, sim.checkFeasible(), "the simulation has no sink delay");
    }

    /** A file job's estimate counts its inputs' lines, not the demo's --records. */
    @Test
    void aFileJobsEstimateCountsItsInputs() throws Exception {
        Path in = tmp.resolve("in.txt");
        Files.writeString(in, "1 1\n");
        CliOptions o = CliOptions.parse(new String[] {"--mode", "aligned", "--input", in.toString(), "--output",
                tmp.resolve("out").toString()}, 0, dev.consistentcut.barrier.BarrierHandlers::byName, true);
        assertEquals(null, o.checkFeasible(1), "one line: nothing to announce");
        assertEquals("this run takes at least 70 s (1400000 input records x 50 us at the sink)", o.checkFeasible(1_400_000));
        UsageException refused = assertThrows(UsageException.class, () -> o.checkFeasible(100_000_000));
        assertTrue(refused.getMessage().startsWith("this run would take at least 5000 s (100000000 input records x 50 us"
                + " at the sink), more than the 3600 s allowed; lower the input's records"), refused.getMessage());
    }
}
