package dev.consistentcut.runtime;

import dev.consistentcut.checkpoint.CheckpointCoordinator;
import dev.consistentcut.checkpoint.CheckpointStatus;
import dev.consistentcut.task.Action;
import dev.consistentcut.task.ActionListener;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Timeouts as {@code AbortCheckpoint} actions: {@link CheckpointCoordinator#abortExpired} reports
 * only how many it aborted, but a trace (issue 5) needs one event per aborted checkpoint. Called by
 * the runtime that drives the coordinator, from its one coordinator thread.
 */
final class ExpiredAborts {

    private ExpiredAborts() {
    }

    /**
     * Aborts every pending checkpoint older than {@code timeout} and tells {@code listener} about
     * each, in id order.
     *
     * @param triggered the ids triggered so far (the candidates)
     * @return how many were aborted
     */
    static int abort(CheckpointCoordinator coordinator, long timeout, Collection<Long> triggered, ActionListener listener) {
        if (listener == ActionListener.NONE) {
            return coordinator.abortExpired(timeout);
        }
        List<Long> pending = triggered.stream().filter(id -> coordinator.status(id) == CheckpointStatus.PENDING).sorted().toList();
        int aborted = coordinator.abortExpired(timeout);
        for (long id : pending) {
            if (coordinator.status(id) == CheckpointStatus.ABORTED) {
                listener.onAction(Action.ABORT_CHECKPOINT.specName(), Map.of("checkpoint", id));
            }
        }
        return aborted;
    }
}
