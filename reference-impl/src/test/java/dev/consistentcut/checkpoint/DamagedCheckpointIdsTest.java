package dev.consistentcut.checkpoint;

import static dev.consistentcut.checkpoint.SampleCheckpoints.sample;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link CheckpointStore#damagedIds()}: the checkpoints the last {@code latest()} fell back past,
 * which the runtimes' {@code RestorePointInv} no longer counts as completed (a fall-back past them
 * is the disk's doing, not the coordinator's).
 */
@Timeout(10)
class DamagedCheckpointIdsTest {

    @TempDir
    Path dir;

    @Test
    void aStoreThatNeverLosesACheckpointReportsNone() {
        InMemoryCheckpointStore s = new InMemoryCheckpointStore(2);
        s.store(sample(1));
        s.latest();
        assertEquals(Set.of(), s.damagedIds());
    }

    @Test
    void theFilesALatestFellBackPastAreNamedUntilTheNextLatest() throws IOException {
        DirectoryCheckpointStore s = new DirectoryCheckpointStore(dir, 4, w -> { });
        s.store(sample(1));
        s.store(sample(2));
        s.store(sample(3));
        assertEquals(Set.of(), s.damagedIds(), "before any latest()");
        Files.write(dir.resolve("chk-3.ckpt"), new byte[] {1, 2, 3, 4}); // the pointed one
        Files.write(dir.resolve("chk-2.ckpt"), new byte[] {5, 6, 7, 8}); // the next older one
        assertEquals(Optional.of(sample(1)), s.latest());
        assertEquals(Set.of(2L, 3L), s.damagedIds());

        s.store(sample(4));
        assertEquals(Optional.of(sample(4)), s.latest());
        assertEquals(Set.of(), s.damagedIds(), "a latest() that falls back past nothing clears them");
    }
}
