package dev.consistentcut.checkpoint;

import java.io.IOException;
import java.nio.file.Path;

/**
 * DELIBERATELY BROKEN: the store's file operations with one of its fsyncs dropped, the rest
 * passed on. Without a power loss nothing differs (the data is in the page cache), so every test
 * but the power-loss test passes with it; {@code PowerLossBrokenTwinTest} shows that one failing.
 * Never use it otherwise.
 *
 * <p><b>Threading contract.</b> As {@link StoreFiles}: called under the store's lock.
 */
final class StoreMissingFsync implements StoreFiles {

    /** The fsync dropped. */
    enum Dropped {
        /** The fsync of {@code chk-<id>.tmp} before its rename. */
        CHECKPOINT_FILE_FSYNC,
        /** The fsync of {@code LATEST.tmp} before its rename. */
        POINTER_FILE_FSYNC,
        /** The directory fsync after {@code chk-<id>.tmp} is renamed to {@code chk-<id>.ckpt}. */
        DIRECTORY_FSYNC_AFTER_CHECKPOINT_RENAME,
        /** The directory fsync after {@code LATEST.tmp} is renamed to {@code LATEST}. */
        DIRECTORY_FSYNC_AFTER_POINTER_RENAME
    }

    private final StoreFiles files;
    private final Dropped dropped;
    private String lastRenamed = "";

    StoreMissingFsync(StoreFiles files, Dropped dropped) {
        this.files = files;
        this.dropped = dropped;
    }

    @Override
    public void write(Path file, byte[] bytes) throws IOException {
        files.write(file, bytes);
    }

    @Override
    public void fsync(Path file) throws IOException {
        String name = file.getFileName().toString();
        boolean pointer = name.startsWith(DirectoryCheckpointStore.POINTER);
        boolean checkpoint = name.startsWith("chk-");
        if (!(pointer && dropped == Dropped.POINTER_FILE_FSYNC || checkpoint && dropped == Dropped.CHECKPOINT_FILE_FSYNC)) {
            files.fsync(file);
        }
    }

    @Override
    public void rename(Path from, Path to) throws IOException {
        files.rename(from, to);
        lastRenamed = to.getFileName().toString();
    }

    @Override
    public void fsyncDirectory(Path dir) {
        boolean pointer = lastRenamed.equals(DirectoryCheckpointStore.POINTER);
        boolean checkpoint = lastRenamed.startsWith("chk-");
        if (!(pointer && dropped == Dropped.DIRECTORY_FSYNC_AFTER_POINTER_RENAME
                || checkpoint && dropped == Dropped.DIRECTORY_FSYNC_AFTER_CHECKPOINT_RENAME)) {
            files.fsyncDirectory(dir);
        }
    }

    @Override
    public void delete(Path file) throws IOException {
        files.delete(file);
    }
}
