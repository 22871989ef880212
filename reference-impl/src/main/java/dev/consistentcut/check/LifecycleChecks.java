package dev.consistentcut.check;

import dev.consistentcut.channel.Channel;
import dev.consistentcut.checkpoint.CheckpointCoordinator;
import dev.consistentcut.checkpoint.CheckpointStatus;
import dev.consistentcut.checkpoint.CheckpointStore;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.task.RunEvent;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The runtimes' share of the order, restore-point and status invariants, checked step by step as the spec checks them
 * (each formula is in {@link CutInvariants}): {@code RestorePointInv} and
 * {@code RestorePointMonotoneProp} over the coordinator's restore point, {@code CheckpointStatusProp}
 * and {@code FailureAbortsPendingInv} over the statuses of the checkpoints this runtime triggered,
 * and {@code FifoChannelInv} (and, unaligned, {@code BarrierOvertakesInv}),
 * {@code EndOfPartitionOnceInv} and {@code CancelBarrierOnceInv} over channels that were just
 * appended to or restored. Each distinct violation is reported once.
 *
 * <p>What a step can change, and therefore what is looked at after it: a channel's order only
 * when something is appended (a poll removes the head, which keeps both channel claims), so after
 * a task step only that task's output channels, after a restore every channel; a checkpoint's
 * status only through the coordinator, so after each step the pending ones and the one the step
 * names ({@link #check}), after a coordinator step of the simulation or a failure every one
 * ({@link #checkAll}).
 *
 * <p>As a {@link dev.consistentcut.task.RunObserver} of a run it follows the coordinator's steps: a
 * {@code TriggerCheckpoint} event is {@link #triggered}, a {@code CompleteCheckpoint} event
 * {@link #completed} (and, when asked, {@link #check}ed at once), a {@code FailAndRestore} event
 * {@link #failed} with every status and every channel checked. What follows other steps
 * ({@link #check}, {@link #checkAll}, {@link #channels}) the runtime calls, at the moments it
 * knows nothing else moves.
 *
 * <p>Not thread-safe: the simulation's thread, or the threaded runtime's coordinator thread
 * (whose coordinator steps are the only ones that change the restore point or a status, apart
 * from declines and acknowledgements, which it sees at its next check). As an observer it reads
 * only the coordinator's events, which that thread tells; the task threads' events it ignores.
 */
public final class LifecycleChecks implements StepChecks {

    /**
     * What the checks read of the coordinator: the two queries, so that a test can hand them a
     * broken coordinator (a decided checkpoint whose status changes), which the final
     * {@link CheckpointCoordinator} cannot be.
     */
    public interface Coordinator {
        CheckpointStatus status(long id);

        Optional<CompletedCheckpoint> latestCompleted();

        /** The real coordinator's answers. */
        static Coordinator of(CheckpointCoordinator coordinator) {
            return new Coordinator() {
                @Override
                public CheckpointStatus status(long id) {
                    return coordinator.status(id);
                }

                @Override
                public Optional<CompletedCheckpoint> latestCompleted() {
                    return coordinator.latestCompleted();
                }
            };
        }
    }

    private final Coordinator coordinator;
    private final CheckpointStore store;
    private final CutInvariants invariants;
    private final boolean overtaking;
    private final List<Violation> sink;
    /** Every channel of the run, checked after a restore; none outside a run. */
    private final Collection<Channel> channels;
    /** Whether a {@code CompleteCheckpoint} event is {@link #check}ed at once (the threaded runtime). */
    private final boolean checkEachCompletion;
    private final Set<String> reported = new HashSet<>();
    /** Every checkpoint this runtime triggered, with the status last seen. */
    private final TreeMap<Long, CheckpointStatus> statuses = new TreeMap<>();
    /**
     * The completed checkpoints: those this runtime completed and the one it started from (a
     * resume: an earlier process completed it). Those the store later finds damaged
     * ({@link CheckpointStore#damagedIds()}, disk damage the spec does not model) are removed at
     * the next failure: they are no longer restorable, so no longer the spec's "completed".
     */
    private final java.util.TreeSet<Long> completed = new java.util.TreeSet<>();
    private long newestCompleted;
    private long restorePoint;
    private long checkedNewest = -1;
    /** The spec's {@code discardedUpTo}: the highest id triggered before the last failure. */
    private long discardedUpTo;

    /**
     * The checks of a run over {@code channels} (a live view: the same channels after each
     * restore), reporting each distinct violation once to {@code sink}.
     *
     * @param overtaking whether barriers overtake (unaligned): then {@code BarrierOvertakesInv} too
     * @param checkEachCompletion {@link #check} each completed checkpoint as its event comes
     */
    public LifecycleChecks(Coordinator coordinator, CheckpointStore store, CutInvariants invariants,
                           boolean overtaking, List<Violation> sink, Collection<Channel> channels,
                           boolean checkEachCompletion) {
        this.channels = channels;
        this.checkEachCompletion = checkEachCompletion;
        this.coordinator = coordinator;
        this.store = store;
        this.invariants = invariants;
        this.overtaking = overtaking;
        this.sink = sink;
        this.restorePoint = coordinator.latestCompleted().map(CompletedCheckpoint::id).orElse(0L);
        this.newestCompleted = restorePoint;
        if (restorePoint != 0) {
            completed.add(restorePoint);
        }
    }

    @Override
    public void on(RunEvent event) {
        // Task steps are left out: the runtime checks after them (see the class comment).
        if (event instanceof RunEvent.TriggerCheckpoint t) {
            triggered(t.checkpoint());
        } else if (event instanceof RunEvent.CompleteCheckpoint c) {
            completed(c.checkpoint());
            if (checkEachCompletion) {
                check(c.checkpoint());
            }
        } else if (event instanceof RunEvent.FailAndRestore) {
            failed();
            checkAll();
            channels(channels);
        }
    }

    /** {@code TriggerCheckpoint} returned {@code id}: it moved NONE -> PENDING. */
    public void triggered(long id) {
        statuses.put(id, CheckpointStatus.PENDING);
    }

    /** Checkpoint {@code id} completed in this runtime. */
    public void completed(long id) {
        completed.add(id);
        newestCompleted = completed.last();
    }

    /**
     * {@code FailAndRestore}, after the coordinator's share: every checkpoint triggered so far lost
     * its barriers; the restore read the store, which may have found completed checkpoints damaged.
     */
    public void failed() {
        if (!statuses.isEmpty()) {
            discardedUpTo = Math.max(discardedUpTo, statuses.lastKey());
        }
        Set<Long> damaged = store.damagedIds();
        if (!damaged.isEmpty() && completed.removeAll(damaged)) {
            // the restore point may rightly move back past them: the spec's restore point never
            // loses a checkpoint to the disk, so restart the monotone claim from the store's answer
            restorePoint = coordinator.latestCompleted().map(CompletedCheckpoint::id).orElse(0L);
            newestCompleted = completed.isEmpty() ? 0 : completed.last();
        }
    }

    /** After a step that may change any checkpoint's status (a failure, a coordinator step): every status, and the restore point. */
    @Override
    public void checkAll() {
        checkStatuses(statuses.keySet(), 0);
        checkRestorePoint();
    }

    /** After any other step, which may have named checkpoint {@code id} (0: none): the pending ones, that one, the restore point. */
    @Override
    public void check(long id) {
        List<Long> pending = new ArrayList<>();
        statuses.forEach((c, s) -> {
            if (s == CheckpointStatus.PENDING) {
                pending.add(c);
            }
        });
        checkStatuses(pending, id);
        checkRestorePoint();
    }

    private void checkStatuses(Collection<Long> ids, long named) {
        List<Long> look = new ArrayList<>(ids);
        if (named != 0 && statuses.containsKey(named) && !ids.contains(named)) {
            look.add(named);
        }
        Map<Long, CheckpointStatus> now = new TreeMap<>();
        for (long c : look) {
            CheckpointStatus after = coordinator.status(c);
            report(CutInvariants.checkpointStatus(c, statuses.get(c), after), CutInvariants.CHECKPOINT_STATUS + c);
            statuses.put(c, after);
            now.put(c, after);
        }
        report(CutInvariants.failureAbortsPending(now, discardedUpTo), CutInvariants.FAILURE_ABORTS_PENDING);
    }

    private void checkRestorePoint() {
        long latest = coordinator.latestCompleted().map(CompletedCheckpoint::id).orElse(0L);
        if (latest == restorePoint && newestCompleted == checkedNewest) {
            return; // nothing moved since the last check
        }
        if (latest != restorePoint) {
            report(CutInvariants.restorePointMonotone(restorePoint, latest), CutInvariants.RESTORE_POINT_MONOTONE + latest);
            restorePoint = latest;
        }
        checkedNewest = newestCompleted;
        report(CutInvariants.restorePoint(latest, List.of(newestCompleted)), CutInvariants.RESTORE_POINT + latest);
    }

    /**
     * {@code FifoChannelInv} (and {@code BarrierOvertakesInv} when unaligned),
     * {@code EndOfPartitionOnceInv} and {@code CancelBarrierOnceInv} of each of {@code channels}.
     */
    @Override
    public void channels(Collection<Channel> channels) {
        for (Channel ch : channels) {
            List<?> contents = ch.contents();
            report(invariants.fifoChannel(ch.id(), contents), CutInvariants.FIFO_CHANNEL + ch.id());
            if (overtaking) {
                report(CutInvariants.barrierOvertakes(ch.id(), contents), CutInvariants.BARRIER_OVERTAKES + ch.id());
            }
            report(CutInvariants.endOfPartitionOnce(ch.id(), contents), CutInvariants.END_OF_PARTITION_ONCE + ch.id());
            report(CutInvariants.cancelBarrierOnce(ch.id(), contents), CutInvariants.CANCEL_BARRIER_ONCE + ch.id());
        }
    }

    private void report(List<Violation> found, String key) {
        if (!found.isEmpty() && reported.add(key)) {
            sink.addAll(found);
        }
    }
}
