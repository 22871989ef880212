package dev.consistentcut.checkpoint;

import java.io.IOException;
import java.nio.file.Path;

/**
 * The {@link StoreFiles} of the power-loss test: performs each operation for real (the store reads
 * its directory itself) and records it in the {@link PowerLossDisk} under the directory name
 * {@code dir}.
 *
 * <p><b>Threading contract.</b> Called under the store's lock, on the runtime's one thread.
 */
final class RecordingStoreFiles implements StoreFiles {

    private final PowerLossDisk disk;
    private final String dir;

    RecordingStoreFiles(PowerLossDisk disk, String dir) {
        this.disk = disk;
        this.dir = dir;
    }

    @Override
    public void write(Path file, byte[] bytes) throws IOException {
        StoreFiles.REAL.write(file, bytes);
        disk.create(dir, name(file));
        disk.write(dir, name(file), bytes);
    }

    @Override
    public void fsync(Path file) throws IOException {
        StoreFiles.REAL.fsync(file);
        disk.fsync(dir, name(file));
    }

    @Override
    public void rename(Path from, Path to) throws IOException {
        StoreFiles.REAL.rename(from, to);
        disk.rename(dir, name(from), name(to));
    }

    @Override
    public void fsyncDirectory(Path d) {
        StoreFiles.REAL.fsyncDirectory(d);
        disk.fsyncDirectory(dir);
    }

    @Override
    public void delete(Path file) throws IOException {
        StoreFiles.REAL.delete(file);
        disk.delete(dir, name(file));
    }

    private static String name(Path p) {
        return p.getFileName().toString();
    }
}
