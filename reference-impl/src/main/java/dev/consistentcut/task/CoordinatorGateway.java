package dev.consistentcut.task;

import dev.consistentcut.checkpoint.Acknowledgement;
import java.util.OptionalLong;

/**
 * What a task needs from the checkpoint coordinator and the runtime's clock. Each runtime
 * implements it around its {@link dev.consistentcut.checkpoint.CheckpointCoordinator}: it passes
 * acknowledgements on and, when the coordinator answers {@code ALL_ACKNOWLEDGED}, makes
 * {@code CompleteCheckpoint} happen (the simulation as a step of its own). Implementations must be
 * thread-safe: every task thread of the threaded runtime calls them.
 */
public interface CoordinatorGateway {

    /** The next checkpoint whose barrier source task {@code sourceTask} must inject, if any. */
    OptionalLong nextBarrierFor(String sourceTask);

    /** Hands the coordinator a task's acknowledgement, sent within the task's step (before its event). */
    void acknowledge(Acknowledgement ack);

    /**
     * Hands the coordinator a task's acknowledgement sent between its steps: the task's write of
     * the checkpoint finished after the step that snapshotted ({@code OperatorTask#acknowledgeWritten}).
     * It comes after the task's last step, not with its next one (with a causal trace: the clock
     * of the task's last event, not the number of its next). By default {@link #acknowledge}.
     */
    default void acknowledgeBetweenSteps(Acknowledgement ack) {
        acknowledge(ack);
    }

    /** When checkpoint {@code checkpointId} was triggered, in {@link #now()} units. */
    long triggerTime(long checkpointId);

    /** The runtime's clock: nanoseconds in the threaded runtime, steps in the simulation. */
    long now();

    /**
     * The oldest aborted checkpoint {@code task} has not been notified of yet: its
     * {@code NotifyCheckpointAborted} step is enabled. Default: none (a gateway without aborts).
     */
    default OptionalLong nextAbortNotificationFor(String task) {
        return OptionalLong.empty();
    }

    /** {@code task} took the notification of {@code checkpointId}'s abort. Default: nothing to consume. */
    default void abortNotified(String task, long checkpointId) {
    }

    /**
     * {@code DeclineCheckpoint}: {@code task} gave up {@code checkpointId} and will never
     * acknowledge it; the coordinator aborts it. Default: unsupported.
     */
    default void declineCheckpoint(String task, long checkpointId) {
        throw new UnsupportedOperationException("task " + task + " declined checkpoint " + checkpointId
                + ", but this gateway has no declines");
    }

    /**
     * Whether {@code task} cannot take part in checkpoint {@code checkpointId}, whose first
     * barrier just reached it: it then declines it ({@link #declineCheckpoint}) and abandons it on
     * that barrier. Asked once per task and checkpoint. Default: never (the threaded runtime);
     * the simulation: a seeded choice ({@code CheckpointSettings.declineProbability}).
     */
    default boolean declinesOnFirstBarrier(String task, long checkpointId) {
        return false;
    }

    /**
     * A task has ended (FLIP-147) with {@code finalState} (its checkpoint id is a placeholder):
     * the coordinator records that state for every later checkpoint instead of waiting for it.
     * Default: unsupported, so a runtime cannot forget it silently.
     */
    default void taskEnded(Acknowledgement finalState) {
        throw new UnsupportedOperationException("task " + finalState.task() + " ended, but this gateway has no end of input");
    }

    /** Whether checkpoint {@code checkpointId} is a savepoint (forced aligned). Default: no savepoints. */
    default boolean isSavepoint(long checkpointId) {
        return false;
    }

    /**
     * Alternating mode: whether {@code checkpointId} has been pending for at least
     * {@code timeoutMillis} since its trigger, so its alignment times out. Default: by
     * {@link #now()} in nanoseconds; the simulation counts one step per millisecond.
     */
    default boolean alignmentTimedOut(long checkpointId, long timeoutMillis) {
        return now() - triggerTime(checkpointId) >= timeoutMillis * 1_000_000L;
    }

    /** Alternating mode: {@code task} switched {@code checkpointId} to unaligned by a timeout. Default: nothing. */
    default void alignmentSwitched(String task, long checkpointId) {
    }

    /**
     * The newest completed checkpoint transactional sink {@code task} has not been notified of:
     * its {@code NotifyCheckpointComplete} step is enabled. Default: none.
     */
    default OptionalLong nextCompleteNotificationFor(String task) {
        return OptionalLong.empty();
    }

    /** {@code task} took the notification that {@code checkpointId} completed. Default: nothing to consume. */
    default void completeNotified(String task, long checkpointId) {
    }
}
