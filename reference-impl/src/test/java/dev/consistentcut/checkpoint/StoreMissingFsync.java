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
        DIRECTORY_FSYNC_AFTER_POINTER_RENAME,
        /**
         * The fsync of the first staged file (a task's changes or a materialisation's), before the
         * store takes it over: one file is enough to lose a checkpoint's state, and every staged
         * file left unsynced would exceed the power-loss test's bound on states.
         */
        STAGED_FILE_FSYNC,
        /** The one directory fsync after a checkpoint's shared files are renamed into place. */
        DIRECTORY_FSYNC_AFTER_SHARED_RENAMES
    }

    private final StoreFiles files;
    private final Dropped dropped;
    private String lastRenamed = "";
    private boolean stagedDropped;

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
        boolean staged = (name.startsWith("changes-") || name.startsWith("materialised-")) && !stagedDropped;
        stagedDropped |= staged && dropped == Dropped.STAGED_FILE_FSYNC;
        if (!(pointer && dropped == Dropped.POINTER_FILE_FSYNC || checkpoint && dropped == Dropped.CHECKPOINT_FILE_FSYNC
                || staged && dropped == Dropped.STAGED_FILE_FSYNC)) {
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
        boolean shared = lastRenamed.startsWith("shared-");
        if (!(pointer && dropped == Dropped.DIRECTORY_FSYNC_AFTER_POINTER_RENAME
                || checkpoint && dropped == Dropped.DIRECTORY_FSYNC_AFTER_CHECKPOINT_RENAME
                || shared && dropped == Dropped.DIRECTORY_FSYNC_AFTER_SHARED_RENAMES)) {
            files.fsyncDirectory(dir);
        }
    }

    @Override
    public void delete(Path file) throws IOException {
        files.delete(file);
    }
}
