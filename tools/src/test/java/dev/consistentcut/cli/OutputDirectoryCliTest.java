package dev.consistentcut.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.consistentcut.sink.FileSinkDirectory;
import dev.consistentcut.sink.SinkDirectory;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file job's output directory through the CLI: one writing process at a time (a second is
 * refused naming the first, which really runs in another process), never the job directory, and
 * every I/O failure under it (a full disk, a directory deleted before a resume) one line naming the
 * path, the operation and the cause in words, exit 3, never an internal error; the stack trace only
 * with {@code --debug}. The cases the table in docs/cli-errors.md lists are run by
 * {@link CliErrorsTableTest}; these are the ones a table row cannot say.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class OutputDirectoryCliTest {

    @TempDir
    Path tmp;

    /** The CLI with the file job's output opened through {@code outputs}. */
    static DurableJobTest.Outcome cli(java.util.function.Function<Path, SinkDirectory> outputs, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            int code = Main.run(args, o, e, new Plugs(Plugs.REAL.modes(), outputs));
            return new DurableJobTest.Outcome(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        }
    }

    /** An output directory on a full disk: every transaction's file is {@code /dev/full}, so its first write fails with ENOSPC. */
    static SinkDirectory fullDisk(Path dir) {
        FileSinkDirectory real = new FileSinkDirectory(dir);
        return (SinkDirectory) Proxy.newProxyInstance(SinkDirectory.class.getClassLoader(),
                new Class<?>[] {SinkDirectory.class}, (proxy, method, args) -> {
                    if (method.getName().equals("create")) {
                        Files.createSymbolicLink(dir.resolve((String) args[0]), Path.of("/dev/full"));
                    }
                    try {
                        return method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause(); // the real directory's SinkIoException, as the sink would get it
                    }
                });
    }

    private Path input(int records) throws IOException {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < records; i++) {
            b.append(i % 7).append(' ').append(i).append('\n');
        }
        return Files.writeString(tmp.resolve("in.txt"), b);
    }

    private static void assertOneCleanLine(DurableJobTest.Outcome o) {
        assertFalse(o.err().contains("internal error"), o.err());
        assertFalse(o.err().contains("\tat ") || o.out().contains("\tat "), "no stack trace: " + o.err());
        assertFalse(o.err().contains("Exception"), "no Java class names: " + o.err());
    }

    @Test
    void aSecondProcessWritingTheOutputIsRefusedNamingTheFirst() throws Exception {
        Path in = input(20_000);
        Path out = tmp.resolve("out");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process first = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                "run", "--mode", "aligned", "--input", in.toString(), "--output", out.toString(), "--sink-delay-us", "1000")
                .redirectErrorStream(true).redirectOutput(tmp.resolve("first.log").toFile()).start();
        try {
            Path lock = out.resolve(JobOutput.LOCK);
            String holder = "pid " + first.pid();
            while (first.isAlive() && !(Files.exists(lock) && Files.readString(lock).strip().equals(holder))) {
                Thread.sleep(20);
            }
            assertTrue(first.isAlive(), "the first run holds the output: " + Files.readString(tmp.resolve("first.log")));
            DurableJobTest.Outcome second = DurableJobTest.cli("run", "--mode", "aligned", "--runtime", "simulation",
                    "--input", in.toString(), "--output", out.toString());
            assertEquals(3, second.code(), second.err());
            assertEquals("error: " + out + ": in use by another process (" + lock + " is locked, by " + holder
                    + "); one output directory, one writing process\n", second.err());
            assertOneCleanLine(second);
        } finally {
            first.destroyForcibly();
            first.waitFor();
        }
    }

    @Test
    void aFinishedRunReleasesTheOutputAndLeavesOnlyItsPartFiles() throws IOException {
        Path in = input(200);
        Path out = tmp.resolve("out");
        DurableJobTest.Outcome o = DurableJobTest.cli("run", "--mode", "aligned", "--runtime", "simulation", "--input",
                in.toString(), "--output", out.toString());
        assertEquals(0, o.code(), o.out() + o.err());
        try (Stream<Path> files = Files.list(out)) {
            assertTrue(files.allMatch(f -> f.getFileName().toString().startsWith("part-")), "no lock file left");
        }
    }

    @Test
    void aFullDiskUnderTheOutputIsOneLineNamingTheFileAndTheCause() throws IOException {
        assumeTrue(Files.isWritable(Path.of("/dev/full")), "needs /dev/full (Linux)");
        Path in = input(200);
        Path out = tmp.resolve("out");
        for (String runtime : new String[] {"simulation", "threads"}) {
            DurableJobTest.Outcome o = cli(OutputDirectoryCliTest::fullDisk, "run", "--mode", "aligned", "--runtime",
                    runtime, "--input", in.toString(), "--output", out.resolve(runtime).toString());
            assertEquals(3, o.code(), o.out() + o.err());
            assertTrue(o.err().matches("(?s).*error: " + java.util.regex.Pattern.quote(out.resolve(runtime) + "/.txn-sink_0-")
                    + "[0-9a-f]{16}\\.tmp: cannot be written: no space left on device\n"), o.err());
            assertOneCleanLine(o);
        }
        DurableJobTest.Outcome debug = cli(OutputDirectoryCliTest::fullDisk, "run", "--mode", "aligned", "--runtime",
                "simulation", "--input", in.toString(), "--output", out.resolve("debug").toString(), "--debug");
        assertEquals(3, debug.code());
        assertTrue(debug.err().contains("\tat "), "--debug adds the stack trace: " + debug.err());
    }
}
