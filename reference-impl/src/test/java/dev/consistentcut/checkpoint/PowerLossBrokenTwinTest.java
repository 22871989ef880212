package dev.consistentcut.checkpoint;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The power-loss test catches a store and a sink that each miss one fsync
 * ({@link StoreMissingFsync}, {@link SinkMissingFsync}): the recorded run of each broken twin holds
 * (without a power loss nothing is missing), and some state a power loss may leave it in does not
 * resume exactly once. The violation found is printed with the fsync that was dropped.
 */
class PowerLossBrokenTwinTest {

    @TempDir
    Path tmp;

    @ParameterizedTest
    @EnumSource(StoreMissingFsync.Dropped.class)
    @Timeout(120)
    void aStoreMissingAnFsyncIsCaught(StoreMissingFsync.Dropped dropped) throws IOException {
        caught("store without " + dropped, new PowerLossRun(tmp, f -> new StoreMissingFsync(f, dropped), UnaryOperator.identity()));
    }

    @ParameterizedTest
    @EnumSource(SinkMissingFsync.Dropped.class)
    @Timeout(120)
    void aSinkMissingAnFsyncIsCaught(SinkMissingFsync.Dropped dropped) throws IOException {
        caught("sink without " + dropped, new PowerLossRun(tmp, UnaryOperator.identity(), d -> new SinkMissingFsync(d, dropped)));
    }

    private static void caught(String twin, PowerLossRun run) throws IOException {
        assertTrue(run.recorded().holds(), twin + ": its run without a power loss must hold: " + run.recorded().violations());
        List<String> violations = run.resumeEveryCrashState(1);
        assertFalse(violations.isEmpty(), twin + ": no crash state of " + run.resumed() + " caught it");
        System.out.println("power loss caught the " + twin + " after " + run.resumed() + " crash states: " + violations.get(0));
    }
}
