package dev.consistentcut.barrier;

import dev.consistentcut.message.Record;

/**
 * What a barrier handler state may ask of the operator task it runs in. The task implements it;
 * the states decide <em>when</em> each of these happens, the task knows <em>how</em>. Called only
 * from the task's own thread, inside its steps ({@code receiveBarrier}, {@code processRecord},
 * {@code receiveCancelBarrier}, {@code notifyCheckpointAborted}, {@code receiveEndOfPartition}).
 */
public interface BarrierHandlerContext {

    /** The task instance id, for error messages. */
    String taskId();

    /** Number of physical inputs of the task (at least 1). */
    int inputCount();

    /** Whether {@code input} has delivered its end of partition (it then counts as arrived for every checkpoint). */
    boolean inputEnded(int input);

    /** Takes the operator state and processed ledger now, as the task's snapshot for {@code checkpointId}. */
    void snapshot(long checkpointId);

    /** Aligned and at-least-once: puts barrier {@code checkpointId} on every output, behind the queued records (in-band). */
    void forwardBarrier(long checkpointId);

    /**
     * Unaligned: puts barrier {@code checkpointId} in the priority lane of every output, ahead of
     * the queued records, and keeps the records it overtook as that output's channel state.
     */
    void forwardBarrierOvertaking(long checkpointId);

    /**
     * Alternating mode: puts {@code barrier} on every output as it is: in-band if it is aligned
     * (keeping its savepoint flag), else overtaking, with the overtaken records kept as that
     * output's channel state. Default: by the flag, through the two methods above.
     */
    default void forward(dev.consistentcut.message.Barrier barrier) {
        if (barrier.aligned()) {
            forwardBarrier(barrier.checkpointId());
        } else {
            forwardBarrierOvertaking(barrier.checkpointId());
        }
    }

    /**
     * Unaligned: {@code record} was taken from {@code input} after the snapshot and before that
     * input's barrier, so it belongs to the input channel's state in the checkpoint.
     */
    void persistInFlight(int input, Record record);

    /**
     * Alternating mode: the first in-band barrier queued on {@code input} (possibly behind
     * records), or null. Default: none.
     */
    default dev.consistentcut.message.Barrier queuedBarrier(int input) {
        return null;
    }

    /**
     * Alternating mode, once the task handles {@code checkpointId} unaligned (a timeout, or an
     * unaligned barrier from upstream) and on a queued barrier of it afterwards: moves
     * {@code input}'s queued in-band barrier of {@code checkpointId} to the head of the channel as
     * an unaligned barrier and, if {@code persist}, keeps the records it overtook as that input's
     * channel state for the checkpoint (they stay queued and are processed after the barrier).
     * The spec's {@code PrioritizedIn}/{@code PrioritizeBarrier}; Flink's
     * {@code CheckpointableInput.convertToPriorityEvent} of an announced barrier.
     *
     * @param persist the spec's {@code SwitchPersistFrom}: whether the overtaken records are
     *     persisted (correct: always, {@code input}'s barrier has not arrived)
     * @return whether such a barrier was queued; false, and nothing changed, otherwise
     */
    default boolean prioritizeBarrier(int input, long checkpointId, boolean persist) {
        return false;
    }

    /**
     * Alternating mode: this task handles {@code checkpointId} unaligned from now on (the spec's
     * {@code switchedAt[c]}), by its own timeout ({@code timeout}) or because an unaligned barrier
     * came. Default: nothing.
     */
    default void switched(long checkpointId, boolean timeout) {
    }

    /**
     * Alternating mode: drops what the task keeps for {@code checkpointId}, which it never
     * started (a passive timeout's channel state), without forwarding anything. Default: nothing.
     */
    default void discard(long checkpointId) {
    }

    /** Sends the task's acknowledgement of {@code checkpointId} to the coordinator. */
    void acknowledge(long checkpointId);

    /**
     * The task abandons {@code checkpointId}: whatever it holds for the checkpoint it was handling
     * (snapshot, channel state) is dropped, and a cancellation barrier of {@code checkpointId} goes
     * on every output (in the priority lane for unaligned jobs, in-band otherwise), once.
     */
    void abandon(long checkpointId);

    /**
     * Remembers that {@code checkpointId}, newer than anything the task has handled, is aborted (a
     * notification came before its barriers): its first barrier will abandon it at once. Older
     * checkpoints are not affected, because a notification travels apart from the barriers. Flink
     * keeps such ids too ({@code SubtaskCheckpointCoordinatorImpl}'s aborted checkpoint ids) and
     * cancels the checkpoint when its barrier arrives.
     */
    void markAborted(long checkpointId);

    /** Whether {@link #markAborted} was called for {@code checkpointId} since the last restore. */
    boolean isAborted(long checkpointId);

    /**
     * {@code DeclineCheckpoint}: the task gives up {@code checkpointId}, which it was handling,
     * because a newer checkpoint's barrier, cancellation or abort came first; it will never
     * acknowledge it, so it tells the coordinator, which aborts it at once instead of waiting for
     * a timeout (Flink: a subsumed alignment declines its checkpoint).
     */
    void decline(long checkpointId);
}
