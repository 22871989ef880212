package dev.consistentcut.checkpoint;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Sees each window of a {@link DirectoryCheckpointStore} write as the store passes it, so that a
 * fault injector can act inside the windows a crash must survive (the crash test's kill points,
 * {@link CrashPoints}) without the store knowing whether anything is injected: the store always
 * calls its observer, and production's is {@link #NONE}. A write is named by {@code write}:
 * {@code shared} (a shared segment file {@code shared-<id>-<task>.seg}), {@code checkpoint} (the
 * private file {@code chk-<id>.ckpt}) or {@code pointer} (the file {@code LATEST}).
 *
 * <p><b>Threading contract.</b> Called with the store's lock held, on the thread calling
 * {@link DirectoryCheckpointStore#store}; an implementation needs no synchronization for one
 * store, but one shared by several stores must be thread-safe.
 */
public interface WriteObserver {

    /**
     * Before the temp file {@code temp} of {@code write} is written with {@code bytes}; the store
     * then writes the whole temp file itself (truncating whatever was written here).
     */
    void beforeTempWrite(String write, Path temp, byte[] bytes) throws IOException;

    /** The temp file of {@code write} is complete and fsynced, not yet renamed. */
    void tempSynced(String write);

    /** The temp file of {@code write} is renamed into place; the directory is not yet fsynced. */
    void renamed(String write);

    /**
     * A subsumed checkpoint's private file is deleted, the shared files only it referenced not yet
     * (the window between {@code SubsumeCheckpoint} and {@code DeleteFile}).
     */
    default void subsumed() {
        // most observers act on the writes only
    }

    /** Observes nothing: production's observer. */
    WriteObserver NONE = new WriteObserver() {
        @Override
        public void beforeTempWrite(String write, Path temp, byte[] bytes) {
            // nothing to inject
        }

        @Override
        public void tempSynced(String write) {
            // nothing to inject
        }

        @Override
        public void renamed(String write) {
            // nothing to inject
        }
    };
}
