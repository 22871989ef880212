package dev.consistentcut.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.cli.DurableJobTest.Outcome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code resume DIR --parallelism count=N} on a file job: the check of what can be rescaled builds
 * the job's graph, whose sink writes into {@code --output}; it must not need that directory (it
 * once failed there with an internal error, exit 3). And a file job killed part way by SIGKILL,
 * resumed rescaled up and then down, writes its output exactly once (tests/crash-test.sh does
 * the same at random kill points, in every mode).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RescaleFileJobCliTest {

    @TempDir
    Path tmp;

    /** Runs the command line in a new JVM that kills itself with SIGKILL at {@code crashAt} (CrashPoints). */
    private int killedAt(String crashAt, Path log, String... args) throws IOException, InterruptedException {
        java.util.List<String> command = new java.util.ArrayList<>(java.util.List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-D" + dev.consistentcut.checkpoint.CrashPoints.PROPERTY + "=" + crashAt,
                "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        command.addAll(java.util.List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(40, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("the job was not killed at " + crashAt + " within 40 s: " + Files.readString(log));
        }
        return p.exitValue();
    }

    /**
     * An unaligned file job (seeded simulation) kills itself after its third checkpoint is
     * committed; it is resumed at parallelism 3 and kills itself again after two more; then it
     * is resumed at 1 to its end. Each checkpoint restored stores in-flight records (asserted),
     * so their redistribution is exercised, and verify-output finds every input line exactly once.
     */
    @Test
    void anUnalignedFileJobKilledAndRescaledUpThenDownWritesItsOutputExactlyOnce() throws Exception {
        Path in = tmp.resolve("in.txt");
        StringBuilder lines = new StringBuilder();
        for (int i = 0; i < 600; i++) {
            lines.append(i % 23).append(' ').append(i).append('\n');
        }
        Files.writeString(in, lines);
        Path dir = tmp.resolve("job");
        Path out = tmp.resolve("out");
        int first = killedAt("pointer-renamed:3", tmp.resolve("first.log"), "run", "--mode", "unaligned", "--runtime",
                "simulation", "--interval-ms", "1", "--capacity", "4", "--checkpoint-dir", dir.toString(),
                "--input", in.toString(), "--output", out.toString());
        assertEquals(137, first, Files.readString(tmp.resolve("first.log")));
        assertTrue(RescaleCliTest.recordsResumeUses(dir) > 0, "the checkpoint restored at 3 stores in-flight records");

        int second = killedAt("pointer-renamed:2", tmp.resolve("second.log"), "resume", dir.toString(),
                "--parallelism", "count=3");
        String secondLog = Files.readString(tmp.resolve("second.log"));
        assertEquals(137, second, secondLog);
        assertTrue(secondLog.contains("rescaling count from 2 to 3 tasks on restore"), secondLog);
        assertTrue(RescaleCliTest.recordsResumeUses(dir) > 0, "the checkpoint restored at 1 stores in-flight records");

        Outcome last = DurableJobTest.cli("resume", dir.toString(), "--parallelism", "count=1");
        assertEquals(0, last.code(), last.out() + last.err());
        assertTrue(last.err().contains("rescaling count from 3 to 1 tasks on restore"), last.err());
        assertTrue(last.out().contains("OutputExactlyOnceInv: holds"), last.out());
        Outcome verified = DurableJobTest.cli("verify-output", "--input", in.toString(), "--output", out.toString());
        assertEquals(0, verified.code(), verified.out() + verified.err());
    }

    @Test
    void aFinishedFileJobAskedToRescaleSaysItIsFinished() throws IOException {
        Path in = tmp.resolve("in.txt");
        StringBuilder lines = new StringBuilder("# key value\n");
        for (int i = 0; i < 100; i++) {
            lines.append(i % 7).append(' ').append(i).append('\n');
        }
        Files.writeString(in, lines);
        Path dir = tmp.resolve("job");
        Path out = tmp.resolve("out");
        Outcome run = DurableJobTest.cli("run", "--mode", "aligned", "--runtime", "simulation", "--checkpoint-dir",
                dir.toString(), "--input", in.toString(), "--output", out.toString());
        assertEquals(0, run.code(), run.out() + run.err());

        Outcome again = DurableJobTest.cli("resume", dir.toString(), "--parallelism", "count=3");
        assertEquals(0, again.code(), again.out() + again.err());
        assertTrue(again.out().contains("already finished (verdict: exactly-once holds)"), again.out());
        assertTrue(Files.readString(dir.resolve("MANIFEST")).contains("parallelism=count=2\n"),
                "a finished job is not rescaled");
    }
}
