package dev.consistentcut.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A power loss at any point of a durable job's run leaves a state it resumes from exactly once:
 * the file operations of a recorded run (the checkpoint store's writes, the sink's transactions and
 * commits, in one order) are replayed as every state a power loss may leave
 * ({@link PowerLossDisk}: every prefix of the log, each subset of the name changes not yet made
 * durable by a directory fsync, each file not in sync as written, as last synced or empty), and
 * each state is resumed and checked ({@link PowerLossRun}). A missing fsync cannot fail any other
 * test: {@code PowerLossBrokenTwinTest} shows this one catches each.
 */
class PowerLossTest {

    @TempDir
    Path tmp;

    @Test
    @Timeout(120)
    void everyStateAPowerLossMayLeaveResumesToAConsistentCutAndExactlyOnceOutput() throws IOException {
        long start = System.nanoTime();
        PowerLossRun run = new PowerLossRun(tmp, UnaryOperator.identity(), UnaryOperator.identity());
        assertTrue(run.recorded().holds(), run.recorded().violations().toString());
        assertTrue(run.recorded().checkpoints().size() >= 3, "a few checkpoints: " + run.recorded().checkpoints().size());
        List<String> violations = run.resumeEveryCrashState(20);
        System.out.printf("power loss: %d file operations, %d crash points, %d distinct crash states resumed,"
                        + " %d checkpoints, %.1f s%n", run.disk().log().size(), run.disk().crashPoints(), run.resumed(),
                run.recorded().checkpoints().size(), (System.nanoTime() - start) / 1e9);
        assertEquals(List.of(), violations);
    }
}
