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

    private static final String SHARED_1 = "[shared-1-count.seg, shared-1-sink.seg]";

    @TempDir
    Path dir;

    @Test
    void aWritePassesEachWindowInOrderWithTheFilesItsNameSays() {
        List<String> seen = new ArrayList<>();
        WriteObserver recording = recording(seen);
        new DirectoryCheckpointStore(dir, 3, w -> { }, "job", recording).store(sample(1));
        assertEquals(List.of(
                "shared before temp shared-1-count.seg.tmp []",
                "shared temp synced [shared-1-count.seg.tmp]",
                "shared renamed [shared-1-count.seg]",
                "shared before temp shared-1-sink.seg.tmp [shared-1-count.seg]",
                "shared temp synced [shared-1-count.seg, shared-1-sink.seg.tmp]",
                "shared renamed [shared-1-count.seg, shared-1-sink.seg]",
                "checkpoint before temp chk-1.tmp " + SHARED_1,
                "checkpoint temp synced [chk-1.tmp, shared-1-count.seg, shared-1-sink.seg]",
                "checkpoint renamed [chk-1.ckpt, shared-1-count.seg, shared-1-sink.seg]",
                "pointer before temp LATEST.tmp [chk-1.ckpt, shared-1-count.seg, shared-1-sink.seg]",
                "pointer temp synced [LATEST.tmp, chk-1.ckpt, shared-1-count.seg, shared-1-sink.seg]",
                "pointer renamed [LATEST, chk-1.ckpt, shared-1-count.seg, shared-1-sink.seg]"), seen);
    }

    @Test
    void aSubsumedCheckpointsSharedFilesGoAfterItsPrivateFile() {
        List<String> seen = new ArrayList<>();
        WriteObserver recording = recording(seen);
        DirectoryCheckpointStore s = new DirectoryCheckpointStore(dir, 1, w -> { }, "job", recording);
        s.store(sample(1));
        s.store(sample(2));
        seen.removeIf(w -> !w.startsWith("subsumed"));
        assertEquals(List.of("subsumed [LATEST, chk-2.ckpt, shared-1-count.seg, shared-1-sink.seg, "
                + "shared-2-count.seg, shared-2-sink.seg]"), seen);
        assertEquals(List.of("LATEST", "chk-2.ckpt", "shared-2-count.seg", "shared-2-sink.seg"), onDisk());
    }

    /**
     * A store that keeps fewer checkpoints than the one before it (a resume with a smaller
     * {@code --retain}) subsumes the expired ones oldest first, as the spec's SubsumeCheckpoint
     * takes them (the store's trace is checked against it).
     */
    @Test
    void expiredCheckpointsAreSubsumedOldestFirst() {
        DirectoryCheckpointStore keepsFour = new DirectoryCheckpointStore(dir, 4, w -> { }, "job");
        for (long c = 1; c <= 4; c++) {
            keepsFour.store(sample(c));
        }
        List<Long> subsumed = new ArrayList<>();
        WriteObserver recording = new WriteObserver() {
            @Override
            public void subsumeCheckpoint(long checkpoint) {
                subsumed.add(checkpoint);
            }
        };
        new DirectoryCheckpointStore(dir, 1, w -> { }, "job", recording).store(sample(5));
        assertEquals(List.of(1L, 2L, 3L, 4L), subsumed);
    }

    /** An observer adding each window it sees, with the files on disk then, to {@code seen}. */
    private WriteObserver recording(List<String> seen) {
        return new WriteObserver() {
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

            @Override
            public void subsumeCheckpoint(long checkpoint) {
                seen.add("subsumed " + onDisk());
            }
        };
    }

    private List<String> onDisk() {
        try (var files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
