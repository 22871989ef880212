package dev.consistentcut.checkpoint;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * The file operations a {@link DirectoryCheckpointStore} write is made of, one method each, so
 * that a test can stop a write at any one of them (a crash) and look at what is left on disk.
 * {@link #REAL} is the only production implementation.
 *
 * <p><b>Threading contract.</b> Called with the store's lock held, but for the writes of staged
 * uploads (a materialiser's, a task's changes), which run on their own threads without it: an
 * implementation that keeps state of its own synchronizes it.
 */
interface StoreFiles {

    /** Creates or truncates {@code file} and writes {@code bytes} to it (not yet durable). */
    void write(Path file, byte[] bytes) throws IOException;

    /** Makes the content of {@code file} durable (fsync). */
    void fsync(Path file) throws IOException;

    /** Renames {@code from} to {@code to} atomically, replacing {@code to}. */
    void rename(Path from, Path to) throws IOException;

    /**
     * Makes the renames in {@code dir} durable (fsync of the directory). Some platforms cannot
     * open a directory for fsync; there it does nothing (the renames are still atomic).
     */
    void fsyncDirectory(Path dir);

    /** Deletes {@code file} if it exists. */
    void delete(Path file) throws IOException;

    StoreFiles REAL = new StoreFiles() {
        @Override
        public void write(Path file, byte[] bytes) throws IOException {
            try (FileChannel ch = FileChannel.open(file,
                    StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
                ByteBuffer b = ByteBuffer.wrap(bytes);
                while (b.hasRemaining()) {
                    ch.write(b);
                }
            }
        }

        @Override
        public void fsync(Path file) throws IOException {
            // fsync acts on the file, not on the descriptor: a fresh one flushes what write wrote.
            try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
                ch.force(true);
            }
        }

        @Override
        public void rename(Path from, Path to) throws IOException {
            Files.move(from, to, StandardCopyOption.ATOMIC_MOVE);
        }

        @Override
        public void fsyncDirectory(Path dir) {
            try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
                d.force(true);
            } catch (IOException e) {
                // Not supported on this platform (e.g. Windows); the rename is still atomic.
            }
        }

        @Override
        public void delete(Path file) throws IOException {
            Files.deleteIfExists(file);
        }
    };
}
