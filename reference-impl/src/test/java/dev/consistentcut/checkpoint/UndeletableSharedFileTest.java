package dev.consistentcut.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A shared file no checkpoint references that cannot be deleted is reported, each time the store
 * tries, as not deleted (never as deleted), and the store goes on storing.
 */
class UndeletableSharedFileTest {

    @TempDir
    Path dir;

    @Test
    void anUndeletableUnreferencedSharedFileIsReportedAsNotDeleted() {
        List<String> warnings = new ArrayList<>();
        DirectoryCheckpointStore store = new DirectoryCheckpointStore(dir, 1, warnings::add, "job",
                new DeleteRefusingFiles(f -> SharedSegmentFiles.SHARED_FILE.matcher(f.getFileName().toString()).matches()));
        store.store(SampleCheckpoints.sample(1));
        store.store(SampleCheckpoints.sample(2)); // subsumes 1: its shared files are unreferenced
        String count1 = dir.resolve(SharedSegmentFiles.name(1, "count")).toString();
        assertTrue(warnings.contains(count1 + ": could not delete an unreferenced shared file: java.nio.file.AccessDeniedException: " + count1),
                warnings.toString());
        assertTrue(Files.exists(Path.of(count1)));

        warnings.clear();
        store.store(SampleCheckpoints.sample(3)); // tries the orphans again before writing
        assertTrue(warnings.contains(count1 + ": could not delete an unreferenced shared file: java.nio.file.AccessDeniedException: " + count1),
                warnings.toString());
        assertTrue(warnings.stream().noneMatch(w -> w.endsWith("deleted")), warnings.toString());
        assertEquals(SampleCheckpoints.sample(3), store.latest().orElseThrow());
    }
}
