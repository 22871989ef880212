package dev.consistentcut.testsupport;

import dev.consistentcut.checkpoint.AckResult;
import dev.consistentcut.checkpoint.Acknowledgement;
import dev.consistentcut.checkpoint.CheckpointCoordinator;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.task.CoordinatorGateway;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.function.Consumer;
import java.util.function.LongPredicate;

/**
 * The runtime's side of the coordinator for code that drives tasks by hand (the stress tests' race
 * harnesses, the benchmarks), as the runtimes do it: the last acknowledgement of a checkpoint
 * completes it on the acknowledging thread (so a completion can race an abort on the coordinator),
 * and every completed checkpoint is recorded for the caller to judge. Abort notifications,
 * declines and alignment switches go to the coordinator. The clock stands still at 0; whether an
 * alignment has timed out is the caller's to say. One gateway for all of them, in the engine's
 * test jar, so that what "the runtime's side" means is written once.
 *
 * <p><b>Threading contract.</b> Any thread: the coordinator is thread-safe, the record of completed
 * checkpoints is guarded by its own lock (a consumer given instead is called on the acknowledging
 * thread and must be as thread-safe as its callers need), and the alignment timer is read through
 * the predicate the caller gives (a volatile flag when another thread fires it).
 */
public final class RecordingGateway implements CoordinatorGateway {

    private final CheckpointCoordinator coordinator;
    /** Given an alignment timeout in milliseconds: whether it has passed. */
    private final LongPredicate alignmentTimedOut;
    /** Guarded by itself; empty when {@link #completions} goes elsewhere. */
    private final List<CompletedCheckpoint> completed = new ArrayList<>();
    /** Where each completed checkpoint goes: {@link #completed} unless the caller gave a consumer. */
    private final Consumer<CompletedCheckpoint> completions;

    /**
     * A gateway whose clock never moves, so only an alignment timeout of 0 has passed (what
     * {@link CoordinatorGateway#alignmentTimedOut} says when {@code now() == triggerTime()}).
     */
    public RecordingGateway(CheckpointCoordinator coordinator) {
        this(coordinator, timeoutMillis -> timeoutMillis <= 0);
    }

    /** A gateway whose alignment timeouts (given in milliseconds) have passed when {@code alignmentTimedOut} says so. */
    public RecordingGateway(CheckpointCoordinator coordinator, LongPredicate alignmentTimedOut) {
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
        this.alignmentTimedOut = Objects.requireNonNull(alignmentTimedOut, "alignmentTimedOut");
        this.completions = c -> {
            synchronized (completed) {
                completed.add(c);
            }
        };
    }

    /**
     * As {@link #RecordingGateway(CheckpointCoordinator, LongPredicate)}, each completed checkpoint
     * handed to {@code completions} instead of kept: a caller that completes checkpoints without
     * end (a benchmark) keeps only what it needs.
     */
    public RecordingGateway(CheckpointCoordinator coordinator, LongPredicate alignmentTimedOut,
                            Consumer<CompletedCheckpoint> completions) {
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
        this.alignmentTimedOut = Objects.requireNonNull(alignmentTimedOut, "alignmentTimedOut");
        this.completions = Objects.requireNonNull(completions, "completions");
    }

    /** The checkpoints completed so far, in the order they completed (none when a consumer took them). */
    public List<CompletedCheckpoint> completed() {
        synchronized (completed) {
            return List.copyOf(completed);
        }
    }

    @Override
    public OptionalLong nextBarrierFor(String sourceTask) {
        return coordinator.nextBarrierFor(sourceTask);
    }

    @Override
    public void acknowledge(Acknowledgement ack) {
        if (coordinator.acknowledge(ack) == AckResult.ALL_ACKNOWLEDGED) {
            coordinator.completeCheckpoint(ack.checkpointId()).ifPresent(completions);
        }
    }

    @Override
    public long triggerTime(long checkpointId) {
        return 0;
    }

    @Override
    public long now() {
        return 0;
    }

    @Override
    public boolean alignmentTimedOut(long checkpointId, long timeoutMillis) {
        return alignmentTimedOut.test(timeoutMillis);
    }

    @Override
    public void alignmentSwitched(String task, long checkpointId) {
        coordinator.alignmentSwitched(task, checkpointId);
    }

    @Override
    public OptionalLong nextAbortNotificationFor(String task) {
        return coordinator.nextAbortNotificationFor(task);
    }

    @Override
    public void abortNotified(String task, long checkpointId) {
        coordinator.abortNotified(task, checkpointId);
    }

    @Override
    public void declineCheckpoint(String task, long checkpointId) {
        coordinator.declineCheckpoint(task, checkpointId);
    }
}
