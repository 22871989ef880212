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
 * once failed there with an internal error, exit 3). The rescale of a file job killed part way,
 * with its output verified, is run by tests/crash-test.sh with real SIGKILLs.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RescaleFileJobCliTest {

    @TempDir
    Path tmp;

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
