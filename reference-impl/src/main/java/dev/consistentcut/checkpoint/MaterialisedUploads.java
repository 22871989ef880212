package dev.consistentcut.checkpoint;

import java.util.List;

/**
 * Where a background materialisation writes the segments it merged before any checkpoint
 * references them, as Flink's changelog state backend uploads the materialised state as part of
 * the materialisation (FLIP-158: PeriodicMaterializationManager.asyncMaterializationPhase runs
 * the materialised snapshot, its upload included, on the materialisation executor and only then
 * hands the result to handleMaterializationResult; the checkpoints after it reference the
 * uploaded state). So the store's write of the
 * checkpoint that first holds them references them instead of writing the whole state on the
 * coordinator's thread ({@link DirectoryCheckpointStore}: an upload is staged as a file of its
 * own, which that checkpoint's {@code UploadFile} renames into a shared file of its own).
 *
 * <p>Threads: {@link #upload} on the materialiser's thread, {@link #discard} on any; thread-safe.
 */
public interface MaterialisedUploads {

    /**
     * Writes {@code segments}, merged segments of {@code task}'s changelogs, durably; true if they
     * are written (the store then references them where they are), false if not (no durable
     * store, it is closed, a restore came in between, or the write failed: the store writes them
     * itself when a checkpoint first holds them, as any new segment). Called before the task is
     * offered the merged segments, so a checkpoint that holds them finds them written.
     */
    boolean upload(String task, List<Object> segments);

    /**
     * The task will not use {@code segments} of an {@link #upload} (its materialisation was
     * dropped): their file is deleted unless a checkpoint references it by now.
     */
    void discard(List<Object> segments);

    /**
     * Writes durably, to a staged file of {@code task}'s, the segments of {@code snapshot}'s
     * changelogs that no file of the store holds yet (the changes since the task's previous
     * snapshot), for {@code checkpoint}: called by the task after its snapshot and before its
     * acknowledgement, on its own thread, so that the store of the checkpoint takes the file over
     * (a rename) instead of writing the changes on the coordinator's thread under its lock. As
     * Flink's changelog writer (FLIP-158: StateChangelogWriter#persist, FsStateChangelogWriter)
     * uploads a task's changes before the checkpoint's acknowledgement and the coordinator only
     * registers their handles. True if something was written; false if not (nothing new, no
     * durable store, the run ended or a restore came in between, or the write failed: the store
     * then writes the segments itself, as before). What no completed checkpoint takes over is
     * deleted: by the store of a later checkpoint, a restore, the run's end, or after a crash the
     * next store's orphan sweep. {@code checkpoint} {@link Long#MAX_VALUE}: a task's final
     * snapshot, which every later checkpoint holds.
     */
    default boolean persist(String task, long checkpoint, TaskSnapshot snapshot) {
        return false;
    }

    /** Nothing is uploaded ahead: every segment is written by the store of the checkpoint that first holds it. */
    MaterialisedUploads NONE = new MaterialisedUploads() {
        @Override
        public boolean upload(String task, List<Object> segments) {
            return false;
        }

        @Override
        public void discard(List<Object> segments) {
            // nothing was uploaded
        }
    };
}
