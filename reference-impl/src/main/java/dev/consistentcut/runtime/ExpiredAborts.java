package dev.consistentcut.runtime;

import dev.consistentcut.checkpoint.CheckpointCoordinator;
import dev.consistentcut.checkpoint.CheckpointStatus;
import dev.consistentcut.task.RunEvent;
import dev.consistentcut.task.RunObserver;
import java.util.Collection;
import java.util.List;

/**
 * Timeouts as {@code AbortCheckpoint} actions: {@link CheckpointCoordinator#abortExpired} reports
 * only how many it aborted, but a trace needs one event per aborted checkpoint. Called by
 * the runtime that drives the coordinator, from its one coordinator thread.
 */
final class ExpiredAborts {

    private ExpiredAborts() {
    }

    /**
     * Aborts every pending checkpoint older than {@code timeout} and tells {@code observer} about
     * each, in id order.
     *
     * @param triggered the ids triggered so far (the candidates)
     * @return how many were aborted
     */
    static int abort(CheckpointCoordinator coordinator, long timeout, Collection<Long> triggered, RunObserver observer) {
        List<Long> pending = triggered.stream().filter(id -> coordinator.status(id) == CheckpointStatus.PENDING).sorted().toList();
        int aborted = coordinator.abortExpired(timeout);
        for (long id : pending) {
            if (coordinator.status(id) == CheckpointStatus.ABORTED) {
                observer.on(new RunEvent.AbortCheckpoint(id));
            }
        }
        return aborted;
    }
}
