package dev.consistentcut.checkpoint;

import static dev.consistentcut.checkpoint.SampleCheckpoints.sample;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The crash between a checkpoint file's rename and the pointer's move, built on purpose through
 * the store's {@link WriteObserver} (the window {@link CrashPoints} calls
 * {@code checkpoint-renamed}): {@code chk-3.ckpt} is complete on disk while {@code LATEST} still
 * names 2. The resumed job restores 2, and its next checkpoint id must be above 3, the newest file
 * on disk: ids continuing from the pointed checkpoint would reuse 3, whose store is refused (the
 * file exists) or, worse, two different checkpoints would carry one id across the crash.
 */
@Timeout(10)
class CrashBeforePointerMoveTest {

    @TempDir
    Path dir;

    /** The crash: the process stops right after the checkpoint file's rename (a thrown error stands for it). */
    private static final class CrashAfterCheckpointRename implements WriteObserver {
        @Override
        public void beforeTempWrite(String write, Path temp, byte[] bytes) {
            // the write goes on
        }

        @Override
        public void tempSynced(String write) {
            // the write goes on
        }

        @Override
        public void renamed(String write) {
            if (write.equals("checkpoint")) {
                throw new Crash();
            }
        }
    }

    private static final class Crash extends RuntimeException {
        Crash() {
            super("crash after the checkpoint file's rename, before the pointer moved");
        }
    }

    @Test
    void theNextCheckpointIdIsAboveTheNewestFileNotTheNewestPointed() throws Exception {
        DirectoryCheckpointStore before = new DirectoryCheckpointStore(dir, 4, w -> { });
        before.store(sample(1));
        before.store(sample(2));
        DirectoryCheckpointStore crashing = new DirectoryCheckpointStore(dir, 4, w -> { }, null,
                new CrashAfterCheckpointRename());
        assertThrows(Crash.class, () -> crashing.store(sample(3)));
        assertTrue(Files.exists(dir.resolve("chk-3.ckpt")), "the checkpoint file is in place");
        assertEquals("checkpoint 2", Files.readString(dir.resolve("LATEST")).split(" crc32c ")[0],
                "the pointer has not moved");

        DirectoryCheckpointStore resumed = new DirectoryCheckpointStore(dir, 4, w -> { });
        assertEquals(Optional.of(sample(2)), resumed.latest(), "the resume restores what the pointer names");
        assertEquals(List.of(1L, 2L, 3L), resumed.retainedIds());
        CheckpointCoordinator co = CheckpointCoordinator.forAligned(Set.of("s", "op"), Set.of("s->op"), 1, resumed, () -> 0);
        assertEquals(Optional.of(sample(2)), co.latestCompleted());
        assertEquals(OptionalLong.of(4), co.triggerCheckpoint(), "above chk-3.ckpt, the newest file on disk");
    }
}
