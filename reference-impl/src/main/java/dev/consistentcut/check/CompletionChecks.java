package dev.consistentcut.check;

import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.checkpoint.CheckpointCoordinator;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.task.RunEvent;
import dev.consistentcut.task.RunObserver;
import java.util.List;

/**
 * The invariants of each completed checkpoint ({@link CutInvariants#completedCheckpoint}, in
 * alternating mode {@link CutInvariants#completedAlternating}), checked as its
 * {@code CompleteCheckpoint} event comes: what the mode promises of the cut it took. Violations
 * go to the run's list. The cut of a checkpoint is checked from the last one for which every
 * check held, looking again only at what changed since ({@link CutRecheck}): the same verdict as
 * the whole check, without walking every ledger at every completion.
 *
 * <p>Threading: {@code CompleteCheckpoint} is told by the coordinator's thread (the simulation's,
 * or the threaded runtime's coordinator thread), the only one that appends to the list through
 * this observer; task events are ignored.
 */
public final class CompletionChecks implements RunObserver {

    private final CutInvariants invariants;
    private final CheckpointCoordinator coordinator;
    private final BarrierMode mode;
    private final boolean trackProcessed;
    private final List<Violation> sink;
    /** The last checkpoint for which every check held, or null: the next one's cut is checked for what changed since. */
    private CompletedCheckpoint held;

    /**
     * @param trackProcessed whether the tasks keep their processed ledgers (without them only the
     *     channel-state claims can be checked)
     */
    public CompletionChecks(CutInvariants invariants, CheckpointCoordinator coordinator, BarrierMode mode,
                            boolean trackProcessed, List<Violation> sink) {
        this.invariants = invariants;
        this.coordinator = coordinator;
        this.mode = mode;
        this.trackProcessed = trackProcessed;
        this.sink = sink;
    }

    @Override
    public void on(RunEvent event) {
        if (event instanceof RunEvent.CompleteCheckpoint e) {
            CompletedCheckpoint cp = e.completed();
            long c = cp.id();
            List<Violation> found = mode.alignedTimeoutMillis() >= 0
                    ? invariants.completedAlternating(cp, coordinator.switched(c), coordinator.isSavepoint(c), trackProcessed,
                            held)
                    : invariants.completedCheckpoint(cp, mode.name(), mode.overtaking(), trackProcessed, held);
            sink.addAll(found);
            held = found.isEmpty() ? cp : null;
        }
    }
}
