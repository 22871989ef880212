package dev.consistentcut.replay;

import static dev.consistentcut.replay.ReplayHarness.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.replay.ReplayHarness.Run;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The replay's lifecycle mappings on the quick replay models that need them, each dumped by TLC:
 * abort notifications and cancellation barriers (the aligned Join with aborts reaching the
 * tasks, within the engine's rule for aborts at tasks) and the at-least-once tracker (its shared
 * steps carry the module's suffix). The correct engine follows every edge; the model's broken
 * twin diverges where and how the row says.
 */
class SpecReplayLifecycleTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} {1}_{2}, twin {5}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            aligned       | MCAlignedCheckpoint     | ReplayAbortJoin | aligned       | states 851/851, edges 2040/2040 covered   | abort-keeps-inputs-blocked | diverged (state) at NotifyCheckpointAborted(join, 1) | arrived[join]: spec '', engine '
            at-least-once | MCAtLeastOnceCheckpoint | ReplayJoin      | at-least-once | states 1527/1527, edges 3907/3907 covered | snapshot-on-first-barrier  | diverged (state) at ReceiveBarrier(join,              | handling[join]: spec '1', engine '0'
            """)
    void theEngineFollowsEveryEdgeAndTheTwinDiverges(String family, String module, String purpose, String mode, String covered,
                                                     String twin, String where, String what)
            throws IOException, InterruptedException, URISyntaxException {
        Path dot = ReplayHarness.dump(dir, family, module, purpose);
        Run r = run("--dot", dot.toString(), "--mode", mode, "--capacity", "1");
        assertEquals(0, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains(covered), r.out());
        Run broken = run("--dot", dot.toString(), "--mode", mode, "--capacity", "1", "--broken", twin, "--stop-at-first");
        assertEquals(1, broken.exit(), broken.out());
        assertTrue(broken.out().contains(where), broken.out());
        assertTrue(broken.out().contains(what), broken.out());
    }
}
