package dev.consistentcut.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.cli.MainTest.Outcome;
import dev.consistentcut.sink.SinkFiles;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * The edges of the command line: verify-output's modes, trace render's and trace record's limits,
 * a file that is not a trace, and input files with a byte-order mark, an endless line or binary
 * data. Each is one message, the documented exit code and no stack trace.
 */
class CliEdgesTest {

    @TempDir
    Path tmp;

    // ------------------------------------------------------------------ verify-output --mode

    @Test
    void verifyOutputAtLeastOnceAllowsDuplicatesButNotAMissingRecord() throws IOException {
        Path in = Files.writeString(tmp.resolve("in.txt"), "1 1\n2 1\n3 1\n4 1\n5 1\n6 1\n");
        Path out = tmp.resolve("out");
        Outcome run = runFileJob(in);
        assertEquals(0, run.code(), run.out() + run.err());
        Path part = parts(out).get(0);
        Path copy = Files.copy(part, out.resolve(part.getFileName().toString().replace(".txt", "-copy.txt")));

        Outcome exactly = MainTest.cli("verify-output", "--input", in.toString(), "--output", out.toString());
        assertEquals(1, exactly.code(), exactly.out());
        Outcome atLeast = MainTest.cli("verify-output", "--mode", "at-least-once", "--input", in.toString(), "--output",
                out.toString());
        assertEquals(0, atLeast.code(), atLeast.out());
        long copied = SinkFiles.parse(part.getFileName().toString(), Files.readAllBytes(part)).size();
        assertTrue(atLeast.out().contains("output: at-least-once holds (6 input records, each committed at least once, "
                + copied + " of them more than once"), atLeast.out());
        Outcome json = MainTest.cli("verify-output", "--mode", "at-least-once", "--json", "--input", in.toString(),
                "--output", out.toString());
        assertEquals(0, json.code(), json.out());
        assertTrue(json.out().contains("\"exactlyOnce\":false,\"mode\":\"at-least-once\",\"atLeastOnce\":true"), json.out());

        // The copy less its first record, the original gone: that record is missing.
        List<String> lines = Files.readAllLines(copy);
        Files.write(copy, lines.subList(1, lines.size()));
        Files.delete(part);
        Outcome missing = MainTest.cli("verify-output", "--mode", "at-least-once", "--input", in.toString(), "--output",
                out.toString());
        assertEquals(1, missing.code(), missing.out());
        assertTrue(missing.out().contains("output: VIOLATED for at-least-once (1 missing"), missing.out());
    }

    @Test
    void verifyOutputAtLeastOnceRejectsAnInventedRecord() throws IOException {
        Path in = Files.writeString(tmp.resolve("in.txt"), "1 1\n2 1\n");
        Path out = tmp.resolve("out");
        assertEquals(0, runFileJob(in).code());
        Path part = parts(out).get(0);
        Files.writeString(part, "s1#0 9 7 1\n", java.nio.file.StandardOpenOption.APPEND);
        Outcome o = MainTest.cli("verify-output", "--mode", "at-least-once", "--input", in.toString(), "--output",
                out.toString());
        assertEquals(1, o.code(), o.out());
        assertTrue(o.out().contains("1 unknown"), o.out());
    }

    @Test
    void verifyOutputNamesAnUnknownModeAndDocumentsTheModes() {
        Outcome o = MainTest.cli("verify-output", "--mode", "twice", "--input", "in.txt", "--output", "out");
        assertEquals(2, o.code());
        assertTrue(o.err().startsWith("error: --mode must be exactly-once or at-least-once, got 'twice'"), o.err());
        Outcome help = MainTest.cli("verify-output", "--help");
        assertTrue(help.out().contains("--mode exactly-once|at-least-once"), help.out());
    }

    // ------------------------------------------------------------------ trace render, record, to-tla

    @Test
    void renderNeverOverwritesWithoutForce() throws IOException {
        Path trace = trace();
        Path svg = Files.writeString(tmp.resolve("mine.svg"), "my picture");
        Outcome o = MainTest.cli("trace", "render", trace.toString(), svg.toString());
        assertEquals(2, o.code(), o.err());
        assertTrue(o.err().contains(svg + " exists; add --force to overwrite it"), o.err());
        assertEquals("my picture", Files.readString(svg));
        Outcome forced = MainTest.cli("trace", "render", "--force", trace.toString(), svg.toString());
        assertEquals(0, forced.code(), forced.err());
        assertTrue(Files.readString(svg).startsWith("<svg") || Files.readString(svg).startsWith("<?xml"));
    }

    @Test
    void renderValidatesUnexplained() throws IOException {
        Path trace = trace();
        Outcome negative = MainTest.cli("trace", "render", trace.toString(), tmp.resolve("a.svg").toString(),
                "--unexplained", "-1");
        assertEquals(2, negative.code(), negative.err());
        assertTrue(negative.err().contains("--unexplained must be an event number, 1 or more (0: none), got -1"),
                negative.err());
        Outcome beyond = MainTest.cli("trace", "render", trace.toString(), tmp.resolve("b.svg").toString(),
                "--unexplained", "100000");
        assertRefused(beyond, 2, "--unexplained 100000: " + trace + " has ");
        assertFalse(Files.exists(tmp.resolve("a.svg")) || Files.exists(tmp.resolve("b.svg")));
    }

    @Test
    void renderRefusesATraceAboveTheLimitAtOnceNamingIt() throws IOException {
        Path big = tmp.resolve("big.ndjson");
        try (RandomAccessFile f = new RandomAccessFile(big.toFile(), "rw")) {
            f.setLength(52_000_000); // sparse: nothing is written
        }
        Outcome o = MainTest.cli("trace", "render", big.toString(), tmp.resolve("big.svg").toString());
        assertRefused(o, 2, big + " has 52000000 bytes, more than the 1000000 bytes render draws");
        assertFalse(o.err().contains("lower --records"), o.err());
    }

    @Test
    void recordHasTheSameRecordsBoundAsRun() {
        Outcome o = MainTest.cli("trace", "record", "--out", tmp.resolve("t.ndjson").toString(), "--records", "2000001");
        assertRefused(o, 2, "--records must be at most 2000000 (as for run --records), got 2000001");
        assertFalse(Files.exists(tmp.resolve("t.ndjson")));
    }

    @Test
    void toTlaOnAFileThatIsNotUtf8SaysItIsNotATrace() throws IOException {
        Path garbage = tmp.resolve("garbage.bin");
        byte[] bytes = "{\"trace\":\"x\"}\n".getBytes(StandardCharsets.UTF_8);
        byte[] all = new byte[bytes.length + 3];
        System.arraycopy(bytes, 0, all, 0, bytes.length);
        all[bytes.length] = (byte) 0xff;
        all[bytes.length + 1] = (byte) 0xfe;
        all[bytes.length + 2] = '\n';
        Files.write(garbage, all);
        Outcome o = MainTest.cli("trace", "to-tla", garbage.toString(), tmp.resolve("tla").toString());
        assertRefused(o, 2, garbage + ":2: not a trace: bytes that are not UTF-8 text");
        assertFalse(o.err().contains("Input length"), o.err());
    }

    // ------------------------------------------------------------------ run --input

    @Test
    void anInputWithAByteOrderMarkIsRead() throws IOException {
        Path in = tmp.resolve("bom.txt");
        Files.write(in, ("\uFEFF7 1\n3 1\n").getBytes(StandardCharsets.UTF_8));
        Outcome o = runFileJob(in);
        assertEquals(0, o.code(), o.out() + o.err());
        assertTrue(o.out().contains("output: exactly-once holds (2 input records"), o.out());
    }

    @Test
    void anOverlongInputLineIsRefusedAtTheLimitAndNotEchoed() throws IOException {
        Path in = tmp.resolve("long.txt");
        Files.writeString(in, "1 1\n1 " + "2".repeat(100_000) + "\n");
        Outcome o = runFileJob(in);
        assertRefused(o, 3, "line 2: longer than the limit of 65536 characters");
        assertTrue(o.err().length() < 1000, "nothing echoed whole: " + o.err().length() + " characters");
    }

    @Test
    void aQuotedLineIsCut() throws IOException {
        Path in = tmp.resolve("fields.txt");
        Files.writeString(in, "1 2 " + "x".repeat(1000) + "\n");
        Outcome o = runFileJob(in);
        assertRefused(o, 3, "found 3 field(s): '1 2 " + "x".repeat(76) + "... (1004 characters)'");
    }

    @Test
    void aBinaryInputIsNamedBinary() throws IOException {
        Path in = tmp.resolve("binary.dat");
        Files.write(in, new byte[] {'1', ' ', '2', '\n', 0, 0, 0, 0});
        Outcome o = runFileJob(in);
        assertRefused(o, 3, "line 2: binary data (a NUL character), not text");
    }

    @Test
    @EnabledOnOs({OS.LINUX, OS.MAC})
    void aDeviceAsInputIsBadUsage() {
        Outcome o = runFileJob(Path.of("/dev/zero"));
        assertEquals(2, o.code(), o.err());
        assertTrue(o.err().startsWith("error: --input /dev/zero is not a regular file (a device or a pipe)"), o.err());
        assertFalse(o.err().contains("lower --records"), o.err());
        assertFalse(Files.exists(tmp.resolve("out")));
    }

    // ------------------------------------------------------------------ helpers

    private Path trace() {
        Path trace = tmp.resolve("t.ndjson");
        Outcome o = MainTest.cli("trace", "record", "--out", trace.toString(), "--records", "2");
        assertEquals(0, o.code(), o.err());
        return trace;
    }

    /** The file job on {@code in}, into tmp/out. */
    private Outcome runFileJob(Path in) {
        return MainTest.cli("run", "--mode", "aligned", "--runtime", "simulation", "--input", in.toString(), "--output",
                tmp.resolve("out").toString());
    }

    /** The committed part files of an output directory, in name order. */
    static List<Path> parts(Path out) throws IOException {
        try (Stream<Path> files = Files.list(out)) {
            return files.filter(p -> SinkFiles.isPart(p.getFileName().toString())).sorted().toList();
        }
    }

    /** Exit {@code code}, {@code message} on stderr, no stack trace. */
    private static void assertRefused(Outcome o, int code, String message) {
        assertEquals(code, o.code(), o.err());
        assertTrue(o.err().contains(message), o.err());
        assertClean(o);
    }

    private static void assertClean(Outcome o) {
        assertFalse(o.err().contains("\tat ") || o.out().contains("\tat "), "no stack trace: " + o.err());
    }
}
