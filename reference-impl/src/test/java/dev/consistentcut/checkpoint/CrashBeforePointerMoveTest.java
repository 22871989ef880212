package dev.consistentcut.checkpoint;

import static dev.consistentcut.checkpoint.SampleCheckpoints.sample;
import static org.junit.jupiter.api.Assertions.assertEquals;
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
 * The crash between a checkpoint file's rename and the pointer's move (the window
 * {@link CrashPoints} calls {@code checkpoint-renamed}), laid out by hand in the directory:
 * {@code chk-3.ckpt} is complete on disk while {@code LATEST} still names 2, in the store's own
 * pointer format. The resumed job restores 2, and its next checkpoint id must be above 3, the
 * newest file on disk: ids continuing from the pointed checkpoint would reuse 3, whose store is
 * refused (the file exists) or, worse, two different checkpoints would carry one id across the
 * crash.
 */
@Timeout(10)
class CrashBeforePointerMoveTest {

    @TempDir
    Path dir;

    @Test
    void theNextCheckpointIdIsAboveTheNewestFileNotTheNewestPointed() throws Exception {
        DirectoryCheckpointStore before = new DirectoryCheckpointStore(dir, 4, w -> { });
        before.store(sample(1));
        before.store(sample(2));
        before.store(sample(3));
        // The crash, laid out by hand: chk-3.ckpt renamed into place, LATEST not moved from 2.
        Files.write(dir.resolve("LATEST"), DirectoryCheckpointStore.pointerBytes(2));
        assertTrue(Files.exists(dir.resolve("chk-3.ckpt")), "the checkpoint file is in place");

        DirectoryCheckpointStore resumed = new DirectoryCheckpointStore(dir, 4, w -> { });
        assertEquals(Optional.of(sample(2)), resumed.latest(), "the resume restores what the pointer names");
        assertEquals(List.of(1L, 2L, 3L), resumed.retainedIds());
        CheckpointCoordinator co = CheckpointCoordinator.forAligned(Set.of("s", "op"), Set.of("s->op"), 1, resumed, () -> 0);
        assertEquals(Optional.of(sample(2)), co.latestCompleted());
        assertEquals(OptionalLong.of(4), co.triggerCheckpoint(), "above chk-3.ckpt, the newest file on disk");
    }
}
