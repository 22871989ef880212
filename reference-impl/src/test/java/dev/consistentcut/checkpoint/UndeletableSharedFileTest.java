package dev.consistentcut.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
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

    /** The real file system, except that shared segment files cannot be deleted. */
    private static final class UndeletableSharedFiles implements StoreFiles {
        @Override
        public void write(Path file, byte[] bytes) throws IOException {
            StoreFiles.REAL.write(file, bytes);
        }

        @Override
        public void fsync(Path file) throws IOException {
            StoreFiles.REAL.fsync(file);
        }

        @Override
        public void rename(Path from, Path to) throws IOException {
            StoreFiles.REAL.rename(from, to);
        }

        @Override
        public void fsyncDirectory(Path d) {
            StoreFiles.REAL.fsyncDirectory(d);
        }

        @Override
        public void delete(Path file) throws IOException {
            if (SharedSegmentFiles.SHARED_FILE.matcher(file.getFileName().toString()).matches()) {
                throw new IOException("refused");
            }
            StoreFiles.REAL.delete(file);
        }
    }

    @Test
    void anUndeletableUnreferencedSharedFileIsReportedAsNotDeleted() {
        List<String> warnings = new ArrayList<>();
        DirectoryCheckpointStore store = new DirectoryCheckpointStore(dir, 1, warnings::add, "job",
                new UndeletableSharedFiles());
        store.store(SampleCheckpoints.sample(1));
        store.store(SampleCheckpoints.sample(2)); // subsumes 1: its shared files are unreferenced
        String count1 = dir.resolve(SharedSegmentFiles.name(1, "count")).toString();
        assertTrue(warnings.contains(count1 + ": could not delete an unreferenced shared file: java.io.IOException: refused"),
                warnings.toString());
        assertTrue(Files.exists(Path.of(count1)));

        warnings.clear();
        store.store(SampleCheckpoints.sample(3)); // tries the orphans again before writing
        assertTrue(warnings.contains(count1 + ": could not delete an unreferenced shared file: java.io.IOException: refused"),
                warnings.toString());
        assertTrue(warnings.stream().noneMatch(w -> w.endsWith("deleted")), warnings.toString());
        assertEquals(SampleCheckpoints.sample(3), store.latest().orElseThrow());
    }
}
