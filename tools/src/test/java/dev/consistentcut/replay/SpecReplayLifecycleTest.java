package dev.consistentcut.replay;

import static dev.consistentcut.replay.ReplayHarness.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.replay.ReplayHarness.Run;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The replay's lifecycle mappings on the quick replay models that need them, each dumped by TLC:
 * abort notifications and cancellation barriers (aligned Join with aborts reaching the tasks,
 * within the engine's rule for aborts at tasks) and the at-least-once tracker (its steps carry
 * the module's suffix). The correct engine follows every edge; a broken one diverges.
 */
class SpecReplayLifecycleTest {

    @TempDir
    Path dir;

    @Test
    void abortsReachingTheTasksAreFollowedAndAnAbortThatKeepsInputsBlockedDiverges()
            throws IOException, InterruptedException, URISyntaxException {
        Path dot = ReplayHarness.dump(dir, "aligned", "MCAlignedCheckpoint", "ReplayAbortJoin");
        Run r = run("--dot", dot.toString(), "--mode", "aligned", "--capacity", "1");
        assertEquals(0, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("states 851/851, edges 2040/2040 covered"), r.out());
        Run broken = run("--dot", dot.toString(), "--mode", "aligned", "--capacity", "1",
                "--broken", "abort-keeps-inputs-blocked", "--stop-at-first");
        assertEquals(1, broken.exit(), broken.out());
        assertTrue(broken.out().contains("diverged (state) at NotifyCheckpointAborted(join, 1)"), broken.out());
        assertTrue(broken.out().contains("arrived[join]: spec '', engine '"), broken.out());
    }

    @Test
    void atLeastOnceIsFollowedAndATrackerSnapshottingOnTheFirstBarrierDiverges()
            throws IOException, InterruptedException, URISyntaxException {
        Path dot = ReplayHarness.dump(dir, "at-least-once", "MCAtLeastOnceCheckpoint", "ReplayJoin");
        Run r = run("--dot", dot.toString(), "--mode", "at-least-once", "--capacity", "1");
        assertEquals(0, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("states 1527/1527, edges 3907/3907 covered"), r.out());
        Run broken = run("--dot", dot.toString(), "--mode", "at-least-once", "--capacity", "1",
                "--broken", "snapshot-on-first-barrier", "--stop-at-first");
        assertEquals(1, broken.exit(), broken.out());
        assertTrue(broken.out().contains("diverged (state) at ReceiveBarrier(join, "), broken.out());
        assertTrue(broken.out().contains("handling[join]: spec '1', engine '0'"), broken.out());
    }
}
