package dev.consistentcut.runtime;

import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.checkpoint.TaskSnapshot;
import dev.consistentcut.message.Record;
import java.util.List;
import java.util.Map;

/**
 * Sees the steps of a rescaled restore ({@link Rescaling#restoreRescaled}), each named after its
 * action of spec/rescale/RescaleRestore.tla and called right after {@link Rescaling} performed
 * it, with what it computed: the rescale trace's recorder ({@code
 * dev.consistentcut.trace.RescaleTraceRecorder}) writes them down. Rescaling always calls its
 * observer and never asks whether anyone records; production's is {@link #NONE}. Every method has
 * a default that does nothing. (Flink's {@code StateAssignmentOperation} does these steps with
 * logging only; the trace needs their results.)
 *
 * <p><b>Threading contract.</b> Called on the thread that restores, one restore at a time per
 * observer; the maps handed over are not changed afterwards.
 */
public interface RescaleObserver {

    /**
     * Not an action: the checkpoint the restore read, as its tasks snapshotted it at
     * {@code oldParallelism} (per rescaled operator), before any step. The rescale trace starts
     * from it (the spec's state after {@code TakeCheckpoint} and {@code FailJob}).
     */
    default void checkpointRead(CompletedCheckpoint checkpoint, Map<String, Integer> oldParallelism) {
        // most observers act on the steps only
    }

    /**
     * {@code AssignKeyGroups}: the task snapshots of the rescaled operators' new tasks (task id to
     * snapshot: the state and processed ledger of the key groups each now owns).
     */
    default void assignKeyGroups(Map<String, TaskSnapshot> newSnapshots) {
        // an observer of the other steps only
    }

    /** {@code RedistributeChannelState}: per new channel id, the stored records it receives, head first. */
    default void redistributeChannelState(Map<String, List<Record>> channels) {
        // an observer of the other steps only
    }

    /** {@code RestoreRescaled}: the checkpoint the new tasks restore (its source offsets rewind the sources). */
    default void restoreRescaled(CompletedCheckpoint restored) {
        // an observer of the other steps only
    }

    /** Observes nothing: production's observer. */
    RescaleObserver NONE = new RescaleObserver() {
    };
}
