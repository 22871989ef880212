package dev.consistentcut.checkpoint;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * Sees each window of a {@link DirectoryCheckpointStore} write as the store passes it, so that a
 * fault injector can act inside the windows a crash must survive (the crash test's kill points,
 * {@link CrashPoints}) without the store knowing whether anything is injected: the store always
 * calls its observer, and production's is {@link #NONE}. A write is named by {@code write}:
 * {@code shared} (a shared segment file {@code shared-<id>-<task>.seg}), {@code checkpoint} (the
 * private file {@code chk-<id>.ckpt}) or {@code pointer} (the file {@code LATEST}); or a staged
 * write, {@code changes} or {@code materialised}, which writes its file in place: its "temp file"
 * is the staged file itself, and it has no {@link #renamed} window.
 *
 * <p>It also sees the store's actions of spec/incremental/IncrementalCheckpointStore.tla, each
 * named after its action and called right after the store performed it: the store trace's
 * recorder ({@code dev.consistentcut.trace.StoreTraceRecorder}) writes them down, and a broken
 * twin may act there. Every method has a default that does nothing: an observer implements the
 * windows or actions it acts on.
 *
 * <p><b>Threading contract.</b> Called with the store's lock held, on the thread calling
 * {@link DirectoryCheckpointStore#store} (the windows of a staged write, a materialisation's
 * {@code materialised} on the materialiser's thread, a task's {@code changes} on the task's); an implementation needs no
 * synchronization for one store, but one shared by several stores must be thread-safe.
 */
public interface WriteObserver {

    /**
     * Before the temp file {@code temp} of {@code write} is written with {@code bytes}; the store
     * then writes the whole temp file itself (truncating whatever was written here).
     */
    default void beforeTempWrite(String write, Path temp, byte[] bytes) throws IOException {
        // an observer of the actions only
    }

    /** The temp file of {@code write} is complete and fsynced, not yet renamed. */
    default void tempSynced(String write) {
        // an observer of the actions only
    }

    /** The temp file of {@code write} is renamed into place; the directory is not yet fsynced. */
    default void renamed(String write) {
        // an observer of the actions only
    }

    /** Where a segment of a task's changelog is stored: segment {@code index} of shared file {@code file}. */
    record Segment(String file, int index) {
    }

    /**
     * {@code TriggerCheckpoint(checkpoint)} as the store sees it: the checkpoint's handle is fixed
     * (every task's segments either reused from a registered shared file or planned for a new one);
     * {@code stateSegments} maps each task to where the segments of its operator-state chain are, in
     * chain order. The coordinator's own trigger came earlier; the store learns of a checkpoint
     * only when it is asked to store it.
     */
    default void triggerCheckpoint(long checkpoint, Map<String, List<Segment>> stateSegments) {
        // most observers act on the writes only
    }

    /** {@code UploadFile}: {@code task}'s new shared file {@code file} of {@code checkpoint} is in place. */
    default void uploadFile(long checkpoint, String task, String file) {
        // most observers act on the writes only
    }

    /** {@code AcknowledgeCheckpoint}: the private file of {@code checkpoint} is in place. */
    default void acknowledgeCheckpoint(long checkpoint) {
        // most observers act on the writes only
    }

    /** {@code CompleteCheckpoint}: {@code checkpoint}'s shared files are registered; it is in the store. */
    default void completeCheckpoint(long checkpoint) {
        // most observers act on the writes only
    }

    /**
     * {@code AbortCheckpoint}: writing {@code checkpoint} failed; what it uploaded is forgotten, and
     * the next store deletes it.
     */
    default void abortCheckpoint(long checkpoint) {
        // most observers act on the writes only
    }

    /**
     * {@code SubsumeCheckpoint}: a subsumed checkpoint's private file is deleted, the shared files
     * only it referenced not yet (the window between {@code SubsumeCheckpoint} and {@code DeleteFile}).
     */
    default void subsumeCheckpoint(long checkpoint) {
        // most observers act on the writes only
    }

    /** {@code UnregisterCheckpoint}: the registry dropped the counts of subsumed {@code checkpoint}'s shared files. */
    default void unregisterCheckpoint(long checkpoint) {
        // most observers act on the writes only
    }

    /** {@code DeleteFile}: shared file {@code file}, which no registered checkpoint references, is deleted. */
    default void deleteFile(String file) {
        // most observers act on the writes only
    }

    /**
     * {@code RestoreCheckpoint}: the job read back its newest restorable checkpoint, {@code checkpoint}
     * (0: none, the initial state) from this store ({@link DirectoryCheckpointStore#latest}).
     */
    default void restoreCheckpoint(long checkpoint) {
        // most observers act on the writes only
    }

    /** Observes nothing: production's observer. */
    WriteObserver NONE = new WriteObserver() {
    };
}
