package dev.consistentcut.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A checkpoint that became unrestorable while the store is open: one the registry knows (a shared
 * file of its own went missing) is kept and reported, but its references are known, so it does
 * not stop the shared files of an older, subsumed checkpoint from being deleted; one whose
 * references the registry does not know (a whole checkpoint of an earlier version, damaged)
 * protects every shared file uploaded up to it.
 */
class DamagedRegisteredCheckpointTest {

    @TempDir
    Path dir;

    @Test
    void aDamagedRegisteredCheckpointDoesNotProtectFilesItDoesNotReference() throws IOException {
        List<String> warnings = new ArrayList<>();
        DirectoryCheckpointStore store = new DirectoryCheckpointStore(dir, 2, warnings::add, "job");
        store.store(SampleCheckpoints.sample(1));
        store.store(SampleCheckpoints.sample(2));
        Path count1 = dir.resolve(SharedSegmentFiles.name(1, "count"));
        Path sink1 = dir.resolve(SharedSegmentFiles.name(1, "sink"));
        assertTrue(Files.exists(count1) && Files.exists(sink1));
        Files.delete(dir.resolve(SharedSegmentFiles.name(2, "count")));

        store.store(SampleCheckpoints.sample(3));
        assertTrue(warnings.stream().anyMatch(w -> w.contains("not counted as retained")), warnings.toString());
        assertTrue(Files.exists(dir.resolve(DirectoryCheckpointStore.fileName(2))), "a damaged checkpoint is kept");
        store.store(SampleCheckpoints.sample(4));

        assertFalse(Files.exists(dir.resolve(DirectoryCheckpointStore.fileName(1))), "checkpoint 1 is subsumed");
        assertFalse(Files.exists(count1), "no registered checkpoint references it");
        assertFalse(Files.exists(sink1), "no registered checkpoint references it");
        assertTrue(Files.exists(dir.resolve(SharedSegmentFiles.name(2, "sink"))), "checkpoint 2 still references it");
        assertEquals(SampleCheckpoints.sample(4), store.latest().orElseThrow());
    }

    @Test
    void aDamagedCheckpointWhoseReferencesAreUnknownProtectsTheSharedFilesUpToIt() throws IOException {
        List<String> warnings = new ArrayList<>();
        Files.write(dir.resolve(DirectoryCheckpointStore.fileName(1)), CheckpointCodec.encode(SampleCheckpoints.sample(1), "job"));
        DirectoryCheckpointStore store = new DirectoryCheckpointStore(dir, 3, warnings::add, "job");
        store.store(SampleCheckpoints.sample(2));
        Files.write(dir.resolve(DirectoryCheckpointStore.fileName(1)), new byte[] {1, 2, 3});
        store.store(SampleCheckpoints.sample(3)); // finds checkpoint 1 unreadable when pruning
        Path shared1 = dir.resolve(SharedSegmentFiles.name(1, "count"));
        Files.write(shared1, new byte[] {4});

        store.store(SampleCheckpoints.sample(4));
        assertTrue(Files.exists(shared1), "checkpoint 1 may reference it");
        assertTrue(warnings.stream().noneMatch(w -> w.startsWith(shared1.toString())), warnings.toString());
    }
}
