package dev.consistentcut.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A finished job leaves no checkpoint temp file (tests/crash-test.sh checks this after every job):
 * the store removes a killed write's {@code chk-<id>.tmp} only when its id is at or below the newest
 * checkpoint, so one above it (the resumed run ended before reaching that id) is removed when the
 * job finishes. Seen once in 11 crash-test jobs after the engine got faster (fewer checkpoints per resume).
 */
@Timeout(10)
class JobDirectoryLeftoversTest {

    @Test
    void aFinishedJobRemovesEveryCheckpointTempFileAndNothingElse(@TempDir Path dir) throws Exception {
        for (String name : new String[] {"chk-3.tmp", "chk-9.tmp", "chk-2.ckpt", "LATEST", "MANIFEST", "LATEST.tmp"}) {
            Files.writeString(dir.resolve(name), "x");
        }
        assertEquals(2, new JobDirectory(dir).removeLeftoverCheckpointTemps());
        assertFalse(Files.exists(dir.resolve("chk-3.tmp")));
        assertFalse(Files.exists(dir.resolve("chk-9.tmp")));
        for (String kept : new String[] {"chk-2.ckpt", "LATEST", "MANIFEST", "LATEST.tmp"}) {
            assertTrue(Files.exists(dir.resolve(kept)), kept + " is not a checkpoint temp file");
        }
        assertEquals(0, new JobDirectory(dir).removeLeftoverCheckpointTemps(), "nothing left the second time");
    }
}
