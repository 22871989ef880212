package dev.consistentcut.checkpoint;

import static dev.consistentcut.checkpoint.SampleCheckpoints.sample;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The windows a {@link DirectoryCheckpointStore} write shows its {@link WriteObserver}, in order,
 * and what is on disk in each: the crash test kills the process there, so each window must be
 * the state its name promises.
 */
class WriteObserverTest {

    @TempDir
    Path dir;

    @Test
    void aWritePassesEachWindowInOrderWithTheFilesItsNameSays() {
        List<String> seen = new ArrayList<>();
        WriteObserver recording = new WriteObserver() {
            @Override
            public void beforeTempWrite(String write, Path temp, byte[] bytes) {
                seen.add(write + " before temp " + temp.getFileName() + " " + onDisk());
            }

            @Override
            public void tempSynced(String write) {
                seen.add(write + " temp synced " + onDisk());
            }

            @Override
            public void renamed(String write) {
                seen.add(write + " renamed " + onDisk());
            }
        };
        new DirectoryCheckpointStore(dir, 3, w -> { }, "job", recording).store(sample(1));
        assertEquals(List.of(
                "checkpoint before temp chk-1.tmp []",
                "checkpoint temp synced [chk-1.tmp]",
                "checkpoint renamed [chk-1.ckpt]",
                "pointer before temp LATEST.tmp [chk-1.ckpt]",
                "pointer temp synced [LATEST.tmp, chk-1.ckpt]",
                "pointer renamed [LATEST, chk-1.ckpt]"), seen);
    }

    private List<String> onDisk() {
        try (var files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
