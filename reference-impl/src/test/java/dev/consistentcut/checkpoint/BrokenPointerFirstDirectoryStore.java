package dev.consistentcut.checkpoint;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * DELIBERATELY BROKEN: writes a checkpoint in the layout of {@link DirectoryCheckpointStore}, each
 * file atomically (temp, fsync, rename, directory fsync), but the pointer {@code LATEST} before the
 * checkpoint file it names. A crash between the two leaves a pointer naming a file that does not
 * exist; the reader then falls back to an older checkpoint with a warning, which hides the bug from
 * every test that only looks at what {@code latest()} returns. It exists only to show that
 * {@code DirectoryCheckpointStoreCrashTest} catches it. Never use it otherwise.
 */
final class BrokenPointerFirstDirectoryStore implements CheckpointStore {

    private final Path dir;
    private final StoreFiles files;

    BrokenPointerFirstDirectoryStore(Path dir, StoreFiles files) {
        this.dir = dir;
        this.files = files;
    }

    @Override
    public void store(CompletedCheckpoint c) {
        try {
            // THE BUG: the commit point first, the data it commits second.
            write(DirectoryCheckpointStore.pointerBytes(c.id()), "LATEST.tmp", DirectoryCheckpointStore.POINTER);
            write(CheckpointCodec.encode(c), "chk-" + c.id() + ".tmp", DirectoryCheckpointStore.fileName(c.id()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void write(byte[] bytes, String temp, String target) throws IOException {
        files.write(dir.resolve(temp), bytes);
        files.fsync(dir.resolve(temp));
        files.rename(dir.resolve(temp), dir.resolve(target));
        files.fsyncDirectory(dir);
    }

    @Override
    public Optional<CompletedCheckpoint> latest() {
        return new DirectoryCheckpointStore(dir, Integer.MAX_VALUE, w -> { }).latest();
    }

    @Override
    public List<Long> retainedIds() {
        return new DirectoryCheckpointStore(dir, Integer.MAX_VALUE, w -> { }).retainedIds();
    }
}
