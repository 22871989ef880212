package dev.consistentcut.check;

import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.checkpoint.CheckpointCoordinator;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.task.RunEvent;
import dev.consistentcut.task.RunObserver;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * The invariants of each completed checkpoint ({@link CutInvariants#completedCheckpoint}, in
 * alternating mode {@link CutInvariants#completedAlternating}), checked as its
 * {@code CompleteCheckpoint} event comes: what the mode promises of the cut it took. Violations
 * go to the run's list. The cut of a checkpoint is checked from the last one for which every
 * check held, looking again only at what changed since ({@link CutRecheck}): the same verdict as
 * the whole check, without walking every ledger at every completion.
 *
 * <p>Threading: {@code CompleteCheckpoint} is told by the coordinator's thread (the simulation's,
 * or the threaded runtime's coordinator thread); task events are ignored. What the check needs of
 * the coordinator (switched, savepoint) is read then, on that thread; the check itself runs on the
 * {@code checker} it was given, one at a time and in completion order: the calling thread (the
 * simulation), or a thread of its own (the threaded runtime, so that checking a checkpoint does
 * not hold up the next trigger). The list of violations must then be safe to append to from the
 * checker's thread.
 */
public final class CompletionChecks implements RunObserver {

    private final CutInvariants invariants;
    private final CheckpointCoordinator coordinator;
    private final BarrierMode mode;
    private final boolean trackProcessed;
    private final List<Violation> sink;
    private final Executor checker;
    /**
     * The last checkpoint for which every check held, or null: the next one's cut is checked for
     * what changed since. Read and written by the checks only, which {@code checker} runs one after
     * another.
     */
    private CompletedCheckpoint held;

    /**
     * @param trackProcessed whether the tasks keep their processed ledgers (without them only the
     *     channel-state claims can be checked)
     * @param sink where the violations go (appended to by the checker's thread)
     * @param checker runs each check, one after another in the order given (a single thread, or
     *     {@code Runnable::run})
     */
    public CompletionChecks(CutInvariants invariants, CheckpointCoordinator coordinator, BarrierMode mode,
                            boolean trackProcessed, List<Violation> sink, Executor checker) {
        this.invariants = invariants;
        this.coordinator = coordinator;
        this.mode = mode;
        this.trackProcessed = trackProcessed;
        this.sink = sink;
        this.checker = checker;
    }

    @Override
    public void on(RunEvent event) {
        if (event instanceof RunEvent.CompleteCheckpoint e) {
            CompletedCheckpoint cp = e.completed();
            long c = cp.id();
            boolean switched = coordinator.switched(c);
            boolean savepoint = coordinator.isSavepoint(c);
            checker.execute(() -> check(cp, switched, savepoint));
        }
    }

    private void check(CompletedCheckpoint cp, boolean switched, boolean savepoint) {
        List<Violation> found = mode.alignedTimeoutMillis() >= 0
                ? invariants.completedAlternating(cp, switched, savepoint, trackProcessed, held)
                : invariants.completedCheckpoint(cp, mode.name(), mode.overtaking(), trackProcessed, held);
        sink.addAll(found);
        held = found.isEmpty() ? cp : null;
    }
}
