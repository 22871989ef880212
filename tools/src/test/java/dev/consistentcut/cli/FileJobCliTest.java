package dev.consistentcut.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.cli.DurableJobTest.Outcome;
import dev.consistentcut.sink.SinkFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The file job through the CLI: {@code run --input FILE... --output DIR} leaves every
 * input record committed exactly once in DIR, with a failure after checkpoint 3 (whose completion
 * notification the failure pre-empts), in both modes and both runtimes; {@code verify-output}
 * says so, and catches a duplicated, a missing, an unknown record, a malformed part file and a
 * pending transaction (its broken twins); a killed file job resumes and ends exactly-once; bad
 * usage and bad inputs are one message and the documented exit code.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FileJobCliTest {

    @TempDir
    Path tmp;

    private Path input(String name, int records, long seed) throws IOException {
        SplittableRandom r = new SplittableRandom(seed);
        StringBuilder b = new StringBuilder("# key value\n");
        for (int i = 0; i < records; i++) {
            b.append(r.nextInt(100)).append(' ').append(i).append('\n');
        }
        Path p = tmp.resolve(name);
        Files.writeString(p, b);
        return p;
    }

    private static void assertNoStackTrace(Outcome o) {
        assertFalse(o.err().contains("\tat ") || o.out().contains("\tat "), "no stack trace: " + o.err() + o.out());
    }

    private Outcome verify(Path in1, Path in2, Path out) {
        return DurableJobTest.cli("verify-output", "--input", in1.toString(), "--input", in2.toString(), "--output",
                out.toString());
    }

    @ParameterizedTest(name = "{0}, {1}")
    @CsvSource({"unaligned, threads", "aligned, threads", "unaligned, simulation", "aligned, simulation",
        "alternating, simulation"})
    void aFailureAfterCheckpoint3LeavesEveryRecordExactlyOnceInTheOutput(String mode, String runtime) throws IOException {
        Path in1 = input("in1.txt", 800, 1);
        Path in2 = input("in2.txt", 600, 2);
        Path out = tmp.resolve("out");
        Outcome o = DurableJobTest.cli("run", "--mode", mode, "--runtime", runtime, "--input", in1.toString(), "--input",
                in2.toString(), "--output", out.toString(), "--fail-after-checkpoint", "3", "--interval-ms", "5",
                "--sink-delay-us", "20");
        assertEquals(0, o.code(), o.out() + o.err());
        assertTrue(o.out().contains("1 failure(s)"), o.out());
        assertTrue(o.out().contains("NoDuplicateOutputInv: holds") && o.out().contains("OutputExactlyOnceInv: holds"), o.out());
        assertTrue(o.out().contains("output: exactly-once holds (1400 input records, each committed once"), o.out());
        assertTrue(o.out().contains("end of input: reached"), o.out());
        assertTrue(o.out().endsWith("verdict: exactly-once holds\n"), o.out());
        Outcome v = verify(in1, in2, out);
        assertEquals(0, v.code(), v.out() + v.err());
        try (Stream<Path> files = Files.list(out)) {
            assertTrue(files.map(p -> p.getFileName().toString()).allMatch(SinkFiles::isPart), "only part files are left");
        }
    }

    @Test
    void atLeastOnceModePromisesOnlyThatNoRecordIsMissing() throws IOException {
        Path in1 = input("in1.txt", 400, 12);
        Path in2 = input("in2.txt", 400, 13);
        Path out = tmp.resolve("out");
        Outcome o = DurableJobTest.cli("run", "--mode", "at-least-once", "--runtime", "simulation", "--interval-ms", "1",
                "--fail-after-checkpoint", "3", "--input", in1.toString(), "--input", in2.toString(), "--output", out.toString());
        assertEquals(0, o.code(), o.out() + o.err());
        assertTrue(o.out().contains("output in at-least-once mode: every input record committed at least once"), o.out());
        assertTrue(o.out().endsWith("verdict: at-least-once holds\n"), o.out());
        Files.delete(parts(out).get(0));
        assertEquals(1, verify(in1, in2, out).code(), "a missing record is caught whatever the mode");
    }

    /** A finished file job's output, in the simulation (fast and deterministic). */
    private Path finishedOutput(Path in1, Path in2) {
        Path out = tmp.resolve("out");
        Outcome o = DurableJobTest.cli("run", "--mode", "unaligned", "--runtime", "simulation", "--interval-ms", "1",
                "--input", in1.toString(), "--input", in2.toString(), "--output", out.toString());
        assertEquals(0, o.code(), o.out() + o.err());
        return out;
    }

    private static List<Path> parts(Path out) throws IOException {
        try (Stream<Path> files = Files.list(out)) {
            return files.filter(p -> SinkFiles.isPart(p.getFileName().toString())).sorted().toList();
        }
    }

    @Test
    void verifyOutputCatchesADuplicatedPartFile() throws IOException {
        Path in1 = input("in1.txt", 300, 3);
        Path in2 = input("in2.txt", 300, 4);
        Path out = finishedOutput(in1, in2);
        Path first = parts(out).get(0);
        Files.copy(first, out.resolve(first.getFileName().toString().replace(".txt", "-again.txt")));
        Outcome v = verify(in1, in2, out);
        assertEquals(1, v.code(), v.out());
        assertTrue(v.out().contains("committed 2 times"), v.out());
        assertTrue(v.out().contains("output: VIOLATED (0 missing, "), v.out());
        assertNoStackTrace(v);
    }

    @Test
    void verifyOutputCatchesAMissingPartFileAPendingTransactionAndAMalformedLine() throws IOException {
        Path in1 = input("in1.txt", 300, 5);
        Path in2 = input("in2.txt", 300, 6);
        Path out = finishedOutput(in1, in2);
        List<Path> parts = parts(out);
        Files.move(parts.get(0), out.resolve(".txn-sink_0-0000000000000001.tmp"));
        Outcome v = verify(in1, in2, out);
        assertEquals(1, v.code(), v.out());
        assertTrue(v.out().contains("is missing"), v.out());
        assertTrue(v.out().contains("neither committed nor aborted"), v.out());
        Files.writeString(parts.get(1), "s1#0 x 1 1\n", java.nio.file.StandardOpenOption.APPEND);
        Outcome bad = verify(in1, in2, out);
        assertEquals(1, bad.code(), bad.out());
        assertTrue(bad.out().contains("malformed part file: " + parts.get(1).getFileName()), bad.out());
        assertNoStackTrace(bad);
    }

    @Test
    void verifyOutputCatchesARecordWithAnotherKeyAndInputsInTheWrongOrder() throws IOException {
        Path in1 = input("in1.txt", 200, 7);
        Path in2 = input("in2.txt", 200, 8);
        Path out = finishedOutput(in1, in2);
        Outcome swapped = verify(in2, in1, out);
        assertEquals(1, swapped.code(), swapped.out());
        assertTrue(swapped.out().contains("its input line has key"), swapped.out());
        Outcome json = DurableJobTest.cli("verify-output", "--json", "--input", in1.toString(), "--input", in2.toString(),
                "--output", out.toString());
        assertEquals(0, json.code(), json.out());
        assertTrue(json.out().startsWith("{\"output\":") && json.out().contains("\"exactlyOnce\":true"), json.out());
    }

    @Test
    void badUsageAndBadInputsAreOneMessageWithTheirExitCode() throws IOException {
        Path in1 = input("in1.txt", 10, 9);
        Path bad = tmp.resolve("bad.txt");
        Files.writeString(bad, "1 2\nthree 4\n");
        Outcome noOutput = DurableJobTest.cli("run", "--mode", "aligned", "--input", in1.toString());
        assertEquals(2, noOutput.code());
        assertTrue(noOutput.err().startsWith("error: --input needs --output DIR"), noOutput.err());
        Outcome records = DurableJobTest.cli("run", "--mode", "aligned", "--input", in1.toString(), "--output",
                tmp.resolve("o").toString(), "--records", "5");
        assertEquals(2, records.code());
        Outcome missing = DurableJobTest.cli("run", "--mode", "aligned", "--input", tmp.resolve("nope.txt").toString(),
                "--output", tmp.resolve("o").toString());
        assertEquals(3, missing.code());
        assertTrue(missing.err().contains("nope.txt: no such file"), missing.err());
        Outcome malformed = DurableJobTest.cli("run", "--mode", "aligned", "--input", bad.toString(), "--output",
                tmp.resolve("o").toString());
        assertEquals(3, malformed.code());
        assertTrue(malformed.err().contains("line 2"), malformed.err());
        assertFalse(Files.exists(tmp.resolve("o")), "nothing written for a bad input");
        Path used = Files.createDirectories(tmp.resolve("used"));
        Files.writeString(used.resolve("x"), "");
        Outcome notEmpty = DurableJobTest.cli("run", "--mode", "aligned", "--input", in1.toString(), "--output", used.toString());
        assertEquals(2, notEmpty.code());
        assertTrue(notEmpty.err().contains("is not empty"), notEmpty.err());
        assertEquals(2, DurableJobTest.cli("verify-output", "--output", used.toString()).code());
        assertEquals(2, DurableJobTest.cli("verify-output", "--input", in1.toString()).code());
        assertEquals(3, DurableJobTest.cli("verify-output", "--input", in1.toString(), "--output",
                tmp.resolve("absent").toString()).code());
        Outcome help = DurableJobTest.cli("verify-output", "--help");
        assertEquals(0, help.code());
        assertTrue(help.out().contains("Exit codes: 0 every input record exactly once"), help.out());
        for (Outcome o : List.of(noOutput, records, missing, malformed, notEmpty)) {
            assertNoStackTrace(o);
        }
    }

    @Test
    void aKilledFileJobResumesAndItsOutputIsExactlyOnce() throws Exception {
        Path in1 = input("in1.txt", 4000, 10);
        Path in2 = input("in2.txt", 4000, 11);
        Path out = tmp.resolve("out");
        Path dir = tmp.resolve("job");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                "run", "--mode", "aligned", "--checkpoint-dir", dir.toString(), "--input", in1.toString(), "--input",
                in2.toString(), "--output", out.toString(), "--sink-delay-us", "200", "--interval-ms", "5")
                .redirectErrorStream(true).redirectOutput(tmp.resolve("first.log").toFile()).start();
        while (p.isAlive() && (!Files.isDirectory(out) || parts(out).size() < 2)) {
            Thread.sleep(20);
        }
        p.destroyForcibly(); // SIGKILL on Linux
        assertEquals(137, p.waitFor(), "killed mid-run: " + Files.readString(tmp.resolve("first.log")));
        assertEquals(1, verify(in1, in2, out).code(), "a killed job's output is not complete");
        Outcome resumed = DurableJobTest.cli("resume", dir.toString(), "--sink-delay-us", "0");
        assertEquals(0, resumed.code(), resumed.out() + resumed.err());
        assertTrue(resumed.out().contains("OutputExactlyOnceInv: holds"), resumed.out());
        Outcome v = verify(in1, in2, out);
        assertEquals(0, v.code(), v.out());
    }
}
