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
 * A checkpoint that became unrestorable after the store registered it (a shared file of its own
 * went missing): it is kept and reported, but its references are known, so it does not stop the
 * shared files of an older, subsumed checkpoint from being deleted.
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
}
