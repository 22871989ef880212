package dev.consistentcut.checkpoint;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The real file operations ({@link StoreFiles#REAL}), for a test's store files to override the one
 * they break or hold. Thread-safe as {@link StoreFiles#REAL}.
 */
class ForwardingStoreFiles implements StoreFiles {

    @Override
    public void write(Path file, byte[] bytes) throws IOException {
        REAL.write(file, bytes);
    }

    @Override
    public void fsync(Path file) throws IOException {
        REAL.fsync(file);
    }

    @Override
    public void rename(Path from, Path to) throws IOException {
        REAL.rename(from, to);
    }

    @Override
    public void fsyncDirectory(Path dir) {
        REAL.fsyncDirectory(dir);
    }

    @Override
    public void delete(Path file) throws IOException {
        REAL.delete(file);
    }
}
