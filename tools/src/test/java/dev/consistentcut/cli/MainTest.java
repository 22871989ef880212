package dev.consistentcut.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.barrier.BrokenHandlers;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class MainTest {

    @TempDir
    Path tmp;

    /** Exit code, stdout and stderr of one CLI call. */
    record Outcome(int code, String out, String err) {
    }

    static Outcome cli(String... args) {
        return cli(args, false);
    }

    static Outcome cli(String[] args, boolean broken) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            int code = broken
                    ? Main.run(args, o, e, new Plugs(name -> name.equals("broken") ? BrokenHandlers.alignedWithoutBlocking()
                            : BarrierHandlers.byName(name), Plugs.REAL.outputs()))
                    : Main.run(args, o, e);
            return new Outcome(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "                                              | no command given: expected run, resume, inspect, verify-output or trace",
            "start --mode aligned                          | unknown command 'start': expected run, resume, inspect, verify-output or trace",
            "run                                           | --mode is required (aligned, unaligned, at-least-once or alternating)",
            "run --mode fast                               | --mode must be aligned, unaligned, at-least-once or alternating, got 'fast'",
            "run --mode                                    | --mode needs a value",
            "run --mode aligned --records x                | --records expects an integer between 1 and 2000000, got 'x'",
            "run --mode aligned --records 0                | --records must be between 1 and 2000000, got 0",
            "run --mode aligned --capacity -1              | --capacity must be between 1 and 1000000, got -1",
            "run --mode aligned --interval-ms -5           | --interval-ms must be between 0 and 600000, got -5",
            "run --mode aligned --fail-after-checkpoint -1 | --fail-after-checkpoint must be between 0 and 10000, got -1",
            // The real range, and runs that cannot finish refused up front
            "run --mode aligned --records 1000000000000    | --records must be between 1 and 2000000, got 1000000000000",
            "run --mode aligned --records 2147483647       | --records must be between 1 and 2000000, got 2147483647",
            "run --mode aligned --records 100000000        | --records must be between 1 and 2000000, got 100000000",
            "run --mode aligned --fail-after-checkpoint 2147483647 | --fail-after-checkpoint must be between 0 and 10000, got 2147483647",
            "run --mode aligned --interval-ms 1000000 --fail-after-checkpoint 1 | --interval-ms must be between 0 and 600000, got 1000000",
            "run --mode aligned --interval-ms 600000 --fail-after-checkpoint 7 | this run would take at least 4200 s (the failure comes after checkpoint 7, one every 600000 ms), more than the 3600 s allowed",
            "run --mode aligned --records 2000000 --sink-delay-us 1000 | this run would take at least 4000 s (2000000 records x 2 sources x 1000 us at the sink), more than the 3600 s allowed",
            "run --mode aligned --records 5 --records 6    | --records given twice",
            "run --mode aligned --force                    | --force applies to --checkpoint-dir only",
            "run --mode aligned --tolerable-failed-checkpoints -1 | --tolerable-failed-checkpoints must be between 0 and 1000000, got -1",
            "run --mode aligned --runtime gpu              | --runtime must be simulation or threads, got 'gpu'",
            "run --mode aligned --records 5 --verbose      | unknown argument '--verbose'",
            "run --mode aligned --seed --json              | --seed needs a value",
    })
    void badArgumentsExitTwoNamingTheArgument(String args, String message) {
        Outcome o = cli(args == null ? new String[0] : args.trim().split("\\s+"));
        assertEquals(2, o.code());
        assertTrue(o.err().startsWith("error: " + message), o.err());
        assertTrue(o.err().contains("Usage: java -jar tools/target/tools.jar run"), "usage follows");
        assertEquals("", o.out());
    }

    @Test
    void checkpointDirThatIsAFileOrNotEmptyIsRefused() throws IOException {
        Path file = Files.writeString(tmp.resolve("file"), "x");
        Outcome o = cli("run", "--mode", "aligned", "--checkpoint-dir", file.toString());
        assertEquals(2, o.code());
        assertTrue(o.err().startsWith("error: --checkpoint-dir " + file + " is not a directory"), o.err());
        Path full = Files.createDirectory(tmp.resolve("full"));
        Files.writeString(full.resolve("chk-1.ckpt"), "old");
        o = cli("run", "--mode", "aligned", "--checkpoint-dir", full.toString());
        assertEquals(2, o.code());
        assertTrue(o.err().startsWith("error: --checkpoint-dir " + full + " is not empty"), o.err());
    }

    @Test
    void helpPrintsTheUsageAndSucceeds() {
        Outcome o = cli("--help");
        assertEquals(0, o.code());
        assertTrue(o.out().startsWith("Usage: "), o.out());
    }

    @ParameterizedTest
    @ValueSource(strings = {"aligned", "unaligned"})
    void simulationWithAFailureReportsEachCheckpointAndExactlyOnce(String mode) {
        Outcome o = cli("run", "--mode", mode, "--runtime", "simulation", "--records", "200", "--interval-ms", "2",
                "--capacity", "4", "--fail-after-checkpoint", "2", "--seed", "7");
        assertEquals(0, o.code(), o.out() + o.err());
        List<String> lines = o.out().lines().toList();
        assertTrue(lines.get(0).startsWith("mode " + mode + ", runtime simulation, 200 records per source, "), lines.get(0));
        assertTrue(lines.get(0).contains(", 1 failure(s), "), lines.get(0));
        assertTrue(lines.stream().filter(l -> l.startsWith("checkpoint ")).count() >= 2, o.out());
        assertTrue(lines.stream().anyMatch(l -> l.matches("checkpoint +1 +duration +\\d+ steps +alignment +\\d+ steps .*")), o.out());
        assertTrue(lines.contains("ConsistentCutInv: holds"), o.out());
        assertTrue(lines.contains("ExactlyOnceInv: holds"), o.out());
        assertEquals("verdict: exactly-once holds", lines.get(lines.size() - 1));
        assertTrue(o.err().contains("failure 1 at step "), "progress on stderr: " + o.err());
    }

    @ParameterizedTest
    @ValueSource(strings = {"aligned", "unaligned"})
    void threadsWithAFailureAndADurableStoreHold(String mode) throws IOException {
        Path dir = tmp.resolve("checkpoints-" + mode);
        Outcome o = cli("run", "--mode", mode, "--records", "400", "--interval-ms", "1", "--sink-delay-us", "20",
                "--capacity", "8", "--fail-after-checkpoint", "2", "--checkpoint-dir", dir.toString());
        assertEquals(0, o.code(), o.out() + o.err());
        assertTrue(o.out().contains("runtime threads"), o.out());
        assertTrue(o.out().contains(", 1 failure(s), "), o.out());
        assertTrue(o.out().endsWith("verdict: exactly-once holds\n"), o.out());
        try (Stream<Path> files = Files.list(dir)) {
            assertTrue(files.anyMatch(f -> f.getFileName().toString().endsWith(".ckpt")), "checkpoints written to " + dir);
        }
    }

    @Test
    void jsonIsOneDocumentWithCheckpointsAndVerdicts() {
        Outcome o = cli("run", "--mode", "unaligned", "--runtime", "simulation", "--records", "100",
                "--interval-ms", "1", "--capacity", "4", "--fail-after-checkpoint", "1", "--json");
        assertEquals(0, o.code(), o.err());
        String json = o.out().strip();
        assertTrue(json.startsWith("{\"mode\":\"unaligned\",\"runtime\":\"simulation\",\"recordsPerSource\":100,"), json);
        assertTrue(json.contains("\"checkpoints\":[{\"id\":1,\"duration\":"), json);
        assertTrue(json.contains("\"invariants\":{\"ConsistentCutInv\":\"holds\",\"UnalignedChannelStateBoundInv\":\"holds\",\"ExactlyOnceInv\":\"holds\","
                + "\"FifoChannelInv\":\"holds\",\"FifoChannelStateInv\":\"holds\",\"BarrierOvertakesInv\":\"holds\","
                + "\"EndOfPartitionOnceInv\":\"holds\",\"CancelBarrierOnceInv\":\"holds\","
                + "\"RestorePointInv\":\"holds\",\"RestorePointMonotoneProp\":\"holds\",\"CheckpointStatusProp\":\"holds\","
                + "\"FailureAbortsPendingInv\":\"holds\"}"), json);
        assertTrue(json.endsWith("\"violations\":[],\"holds\":true}"), json);
        assertEquals(1, o.out().lines().count(), "one line, one document");
    }

    @Test
    void aViolatedInvariantExitsOneAndNamesIt() {
        Outcome o = cli(new String[] {"run", "--mode", "broken", "--runtime", "simulation", "--records", "200",
                "--interval-ms", "1", "--capacity", "4"}, true);
        assertEquals(1, o.code(), o.out());
        assertTrue(o.out().contains("ConsistentCutInv: VIOLATED ("), o.out());
        assertTrue(o.out().contains("ConsistentCutInv (NoDoubleCountInv) violated in checkpoint "), o.out());
        assertTrue(o.out().endsWith("verdict: VIOLATED\n"), o.out());

        Outcome json = cli(new String[] {"run", "--mode", "broken", "--runtime", "simulation", "--records", "200",
                "--interval-ms", "1", "--capacity", "4", "--json"}, true);
        assertEquals(1, json.code());
        assertTrue(json.out().contains("\"invariant\":\"NoDoubleCountInv\""), json.out());
        assertTrue(json.out().strip().endsWith("\"holds\":false}"), json.out());
    }
}
