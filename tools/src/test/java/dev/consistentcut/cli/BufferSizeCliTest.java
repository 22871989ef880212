package dev.consistentcut.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.channel.Channel;
import dev.consistentcut.checkpoint.InMemoryCheckpointStore;
import dev.consistentcut.runtime.JobRuntime;
import dev.consistentcut.runtime.ThreadedRuntime;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code run --buffer-size N}: the value is checked like the other numbers,
 * reaches the threaded runtime's channels (0: a quarter of the capacity; above the capacity:
 * capped, as {@link Channel} does), is refused with the simulation, is kept in the job manifest so
 * that {@code resume} runs with the same buffers (a manifest without it, from an older build,
 * resumes with the default), is shown by {@code inspect}, and a run with buffers of 1 or 8 records
 * reports every invariant holding.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class BufferSizeCliTest {

    @TempDir
    Path tmp;

    /** Exit code, stdout and stderr of one CLI call: {@link MainTest#cli}'s. */
    private static MainTest.Outcome cli(String... args) {
        return MainTest.cli(args);
    }

    private static CliOptions parse(String... args) throws UsageException {
        return CliOptions.parse(args, 0, BarrierHandlers::byName, true);
    }

    /** The runtime {@code run} would start for {@code args}, not run: what its channels got. */
    private static ThreadedRuntime runtimeFor(String... args) throws UsageException {
        CliOptions o = parse(args);
        JobRuntime rt = Main.runtime(o, CliJob.build(o, 0, Plugs.REAL.outputs()), new ObservedStore(new InMemoryCheckpointStore(3)), 0,
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        return assertInstanceOf(ThreadedRuntime.class, rt);
    }

    @ParameterizedTest
    @CsvSource({
            // --buffer-size, --capacity, buffer size each channel gets, buffers (credits) per channel
            "1,       64, 1,  64",
            "8,       64, 8,  8",
            "5,       12, 5,  2",
            "0,       64, 16, 4",   // the default: a quarter of the capacity
            "0,       2,  1,  2",   // ... at least one record
            "1000000, 64, 64, 1",   // above the capacity: capped at it, one buffer
    })
    void theBufferSizeReachesEveryChannelOfTheThreadedRuntime(int given, int capacity, int size, int buffers)
            throws UsageException {
        CliOptions o = parse("--mode", "aligned", "--records", "10", "--capacity", Integer.toString(capacity),
                "--buffer-size", Integer.toString(given));
        assertEquals(given, o.bufferSize());
        ThreadedRuntime rt = runtimeFor("--mode", "aligned", "--records", "10", "--capacity", Integer.toString(capacity),
                "--buffer-size", Integer.toString(given));
        for (String id : List.of("s1#0->count#0", "s1#0->count#1", "s2#0->count#0", "count#0->sink#0", "count#1->sink#0")) {
            Channel c = rt.channel(id);
            assertEquals(size, c.bufferSize(), id);
            assertEquals(buffers, c.bufferCapacity(), id);
        }
    }

    @Test
    void withoutTheOptionTheDefaultIsAQuarterOfTheCapacity() throws UsageException {
        assertEquals(0, parse("--mode", "unaligned").bufferSize());
        assertEquals(16, runtimeFor("--mode", "unaligned", "--records", "10").channel("s1#0->count#0").bufferSize());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "run --mode aligned --buffer-size -1               | --buffer-size must be between 0 and 1000000, got -1",
            "run --mode aligned --buffer-size 1000001          | --buffer-size must be between 0 and 1000000, got 1000001",
            "run --mode aligned --buffer-size 4294967297       | --buffer-size must be between 0 and 1000000, got 4294967297",
            "run --mode aligned --buffer-size x                | --buffer-size expects an integer between 0 and 1000000, got 'x'",
            "run --mode aligned --buffer-size                  | --buffer-size needs a value",
            "run --mode aligned --buffer-size --json           | --buffer-size needs a value",
            "run --mode aligned --buffer-size 2 --buffer-size 2 | --buffer-size given twice",
            "run --mode aligned --runtime simulation --buffer-size 4 | --buffer-size applies to --runtime threads only:"
                    + " the simulation moves one record per step (buffers of one record)",
            "run --mode aligned --buffer-size 1 --runtime simulation | --buffer-size applies to --runtime threads only",
    })
    void badValuesAreUsageErrorsNamingTheOptionAndItsRange(String args, String message) {
        MainTest.Outcome o = cli(args.trim().split("\\s+"));
        assertEquals(2, o.code(), o.err());
        assertTrue(o.err().startsWith("error: " + message), o.err());
        assertTrue(o.err().contains("Usage: java -jar tools/target/tools.jar run"), "usage follows");
        assertFalse(o.err().contains("\tat "), "no stack trace");
        assertEquals("", o.out());
    }

    @Test
    void runHelpDescribesTheOption() {
        MainTest.Outcome o = cli("run", "--help");
        assertEquals(0, o.code());
        assertTrue(o.out().contains("--buffer-size N                threads only: records per network buffer"), o.out());
        assertTrue(o.out().contains("0 (default): a quarter of --capacity"), o.out());
        assertTrue(o.out().contains("above --capacity it is capped at it"), o.out());
        assertTrue(o.out().contains("Refused with --runtime simulation"), o.out());
        assertTrue(cli("resume", "--help").out().contains("--buffer-size"), "resume's help says it is kept");
    }

    @Test
    void theManifestRoundTripsTheBufferSize() throws Exception {
        CliOptions o = parse("--mode", "unaligned", "--records", "10", "--capacity", "12", "--buffer-size", "5");
        JobManifest written = JobManifest.of("job-1", o);
        assertEquals("5", written.options().get("buffer-size"));
        assertTrue(written.text().contains("\ncapacity=12\nbuffer-size=5\n"), written.text());
        Path dir = Files.createDirectory(tmp.resolve("m"));
        Files.writeString(dir.resolve(JobManifest.FILE), written.text());
        JobManifest read = JobManifest.read(dir);
        assertEquals(written.options(), read.options());
        assertEquals(5, CliOptions.parse(read.asArguments(), 0, BarrierHandlers::byName, true).bufferSize());

        // the default is recorded as 0 (a quarter of the capacity, whatever it is)
        assertEquals("0", JobManifest.of("job-2", parse("--mode", "aligned")).options().get("buffer-size"));
        // a simulation job has no buffer size to keep
        assertFalse(JobManifest.of("job-3", parse("--mode", "aligned", "--runtime", "simulation")).options()
                .containsKey("buffer-size"));
        // a manifest written before the option existed reads as the default
        Files.writeString(dir.resolve(JobManifest.FILE), written.text().replace("buffer-size=5\n", ""));
        JobManifest old = JobManifest.read(dir);
        assertFalse(old.options().containsKey("buffer-size"));
        assertEquals("0", old.recorded("buffer-size"));
        assertEquals(0, CliOptions.parse(old.asArguments(), 0, BarrierHandlers::byName, true).bufferSize());
    }

    /** A small durable threaded job with buffers of 5 records in channels of 12, run to its end. */
    private Path finishedJob(String name) {
        Path dir = tmp.resolve(name);
        MainTest.Outcome o = cli("run", "--mode", "unaligned", "--records", "300", "--interval-ms", "1", "--sink-delay-us", "20",
                "--capacity", "12", "--buffer-size", "5", "--checkpoint-dir", dir.toString());
        assertEquals(0, o.code(), o.out() + o.err());
        assertTrue(o.err().contains(", network buffers of 5 records, 2 per channel\n"), o.err());
        assertTrue(Files.exists(dir.resolve("FINISHED")), "a finished job is marked");
        return dir;
    }

    /** As if the process had died after its last checkpoint. */
    private static Path unfinished(Path dir) throws IOException {
        Files.delete(dir.resolve("FINISHED"));
        return dir;
    }

    @Test
    void resumeRunsWithTheJobsBufferSizeAndRefusesAnother() throws IOException {
        Path dir = unfinished(finishedJob("job"));
        assertTrue(Files.readString(dir.resolve(JobManifest.FILE)).contains("\nbuffer-size=5\n"));
        MainTest.Outcome inspect = cli("inspect", dir.toString());
        assertEquals(0, inspect.code(), inspect.err());
        assertTrue(inspect.out().contains(" --capacity 12 --buffer-size 5 "), inspect.out());
        MainTest.Outcome json = cli("inspect", dir.toString(), "--json");
        assertTrue(json.out().contains("\"buffer-size\":\"5\""), json.out());

        MainTest.Outcome other = cli("resume", dir.toString(), "--buffer-size", "6");
        assertEquals(2, other.code(), other.err());
        assertTrue(other.err().startsWith("error: --buffer-size 6 contradicts job "), other.err());
        assertTrue(other.err().contains("(buffer-size 5)"), other.err());
        MainTest.Outcome simulation = cli("resume", dir.toString(), "--runtime", "simulation");
        assertEquals(2, simulation.code(), simulation.err());

        MainTest.Outcome resumed = cli("resume", dir.toString(), "--buffer-size", "5");
        assertEquals(0, resumed.code(), resumed.out() + resumed.err());
        assertTrue(resumed.err().contains(", network buffers of 5 records, 2 per channel\n"), resumed.err());
        assertTrue(resumed.out().contains("job ") && resumed.out().contains(" resumed from "), resumed.out());
        assertTrue(resumed.out().endsWith("verdict: exactly-once holds\n"), resumed.out());

        Path again = unfinished(dir);
        MainTest.Outcome plain = cli("resume", again.toString());
        assertEquals(0, plain.code(), plain.out() + plain.err());
        assertTrue(plain.err().contains(", network buffers of 5 records, 2 per channel\n"), plain.err());
    }

    @Test
    void aManifestWithoutTheBufferSizeResumesWithTheDefault() throws IOException {
        Path dir = unfinished(finishedJob("old"));
        Path manifest = dir.resolve(JobManifest.FILE);
        String text = Files.readString(manifest);
        assertTrue(text.contains("\nbuffer-size=5\n"), text);
        Files.writeString(manifest, text.replace("buffer-size=5\n", "")); // as a build before this option wrote it

        MainTest.Outcome contradicting = cli("resume", dir.toString(), "--buffer-size", "5");
        assertEquals(2, contradicting.code(), contradicting.err());
        assertTrue(contradicting.err().contains("(buffer-size 0)"), contradicting.err());

        MainTest.Outcome resumed = cli("resume", dir.toString(), "--buffer-size", "0");
        assertEquals(0, resumed.code(), resumed.out() + resumed.err());
        // the default of a 12-record channel: buffers of 3 records, 4 of them
        assertTrue(resumed.err().contains(", network buffers of 3 records, 4 per channel\n"), resumed.err());
        assertTrue(resumed.out().endsWith("verdict: exactly-once holds\n"), resumed.out());
    }

    @Test
    void aSimulationJobRefusesABufferSizeOnResume() {
        Path dir = tmp.resolve("sim");
        MainTest.Outcome o = cli("run", "--mode", "aligned", "--runtime", "simulation", "--records", "50", "--interval-ms", "1",
                "--capacity", "4", "--checkpoint-dir", dir.toString());
        assertEquals(0, o.code(), o.out() + o.err());
        assertFalse(o.err().contains("network buffers"), o.err());
        MainTest.Outcome resumed = cli("resume", dir.toString(), "--buffer-size", "2");
        assertEquals(2, resumed.code(), resumed.err());
        assertTrue(resumed.err().startsWith("error: --buffer-size applies to --runtime threads only: job "), resumed.err());
        assertTrue(resumed.err().contains("runs in the simulation"), resumed.err());
    }

    @ParameterizedTest
    @CsvSource({"1, aligned", "8, unaligned", "1, unaligned", "8, aligned"})
    void aThreadedRunWithSmallOrLargeBuffersReportsEveryInvariantHolding(int bufferSize, String mode) {
        MainTest.Outcome o = cli("run", "--mode", mode, "--records", "400", "--interval-ms", "1", "--sink-delay-us", "20",
                "--capacity", "16", "--buffer-size", Integer.toString(bufferSize), "--fail-after-checkpoint", "2");
        assertEquals(0, o.code(), o.out() + o.err());
        assertTrue(o.err().contains(", runtime threads, 400 records per source, network buffers of " + bufferSize
                + " records, " + 16 / bufferSize + " per channel\n"), o.err());
        List<String> lines = o.out().lines().toList();
        assertTrue(lines.get(0).startsWith("mode " + mode + ", runtime threads, 400 records per source, "), lines.get(0));
        assertTrue(lines.get(0).contains(", 1 failure(s), "), lines.get(0));
        assertTrue(lines.stream().anyMatch(l -> l.startsWith("checkpoint ")), o.out());
        List<String> verdicts = lines.stream().filter(l -> l.matches("[A-Za-z]+(Inv|Prop): .*")).toList();
        // ConsistentCutInv, the channel-state bound, ExactlyOnceInv and the lifecycle invariants (BarrierOvertakesInv unaligned)
        assertEquals(mode.equals("aligned") ? 11 : 12, verdicts.size(), "every invariant reported: " + o.out());
        assertTrue(verdicts.contains("ConsistentCutInv: holds") && verdicts.contains("ExactlyOnceInv: holds"), o.out());
        verdicts.forEach(v -> assertTrue(v.endsWith(": holds"), v));
        assertEquals("verdict: exactly-once holds", lines.get(lines.size() - 1));
    }
}
