package dev.consistentcut.checkpoint;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Path;
import java.util.function.Predicate;

/**
 * The real file system, except that deleting a file {@code refused} accepts fails (as a file
 * without write permission on its directory does). Thread-safe as {@link StoreFiles#REAL}.
 */
final class DeleteRefusingFiles extends ForwardingStoreFiles {

    private final Predicate<Path> refused;

    DeleteRefusingFiles(Predicate<Path> refused) {
        this.refused = refused;
    }

    @Override
    public void delete(Path file) throws IOException {
        if (refused.test(file)) {
            throw new AccessDeniedException(file.toString());
        }
        StoreFiles.REAL.delete(file);
    }
}
