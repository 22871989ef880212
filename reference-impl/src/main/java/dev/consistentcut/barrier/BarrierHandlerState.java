package dev.consistentcut.barrier;

import dev.consistentcut.message.Barrier;
import dev.consistentcut.message.Record;

/**
 * One state of an operator task's barrier handling (the model is Flink's
 * {@code org.apache.flink.streaming.runtime.io.checkpointing.BarrierHandlerState}): an event
 * returns the next state, so each mode is a handful of small classes and a new mode is new states,
 * not new branches in the task loop.
 *
 * <p>Every state knows the task's {@link #latestCheckpointId()} (the spec's {@code current[t]},
 * Flink's {@code currentCheckpointId}): the newest checkpoint the task has handled, finished,
 * abandoned or been told is aborted. A barrier or cancellation barrier of a checkpoint at or
 * below it that the task is not handling now is obsolete and dropped.
 *
 * <p>Not thread-safe: a state belongs to one task and is used only by the thread running it.
 */
public interface BarrierHandlerState {

    /**
     * {@code ReceiveBarrier}: the task took {@code barrier} from physical input {@code input}. A
     * barrier of the checkpoint being handled counts its input as arrived; a newer one subsumes
     * the checkpoint being handled (abandoned, a cancellation barrier of it forwarded) and starts
     * the newer one with only {@code input} arrived; an obsolete one is dropped.
     *
     * @throws IllegalStateException naming task, input and checkpoint if the barrier of the
     *     checkpoint being handled arrives twice on one input
     */
    BarrierHandlerState barrierReceived(int input, Barrier barrier, BarrierHandlerContext ctx);

    /** {@code ProcessRecord}: the task took {@code record} from {@code input} and is about to process it. */
    BarrierHandlerState recordReceived(int input, Record record, BarrierHandlerContext ctx);

    /**
     * {@code ReceiveCancelBarrier}: the task took a cancellation barrier of {@code checkpointId}
     * from {@code input}. Unless obsolete, the task abandons that checkpoint (and the older one it
     * handles, if any), unblocks every input and forwards the cancellation barrier once.
     */
    BarrierHandlerState cancelBarrierReceived(int input, long checkpointId, BarrierHandlerContext ctx);

    /**
     * {@code NotifyCheckpointAborted}: the coordinator says {@code checkpointId} is aborted. Unless
     * the task has gone past it, the task abandons it (and the older one it handles, if any) as on
     * a cancellation barrier; later barriers of it are then obsolete.
     */
    BarrierHandlerState checkpointAborted(long checkpointId, BarrierHandlerContext ctx);

    /**
     * {@code ReceiveEndOfPartition}: {@code input} has ended ({@link BarrierHandlerContext#inputEnded}
     * is already true for it). It counts as having delivered every current and later barrier, so
     * this may complete the checkpoint being handled.
     */
    BarrierHandlerState endOfPartitionReceived(int input, BarrierHandlerContext ctx);

    /**
     * Alternating mode: whether {@code TimeoutAlignment(t, checkpointId)} may fire now, the age of
     * the checkpoint aside (the task checks that): actively while aligning {@code checkpointId},
     * or passively before any barrier of it was taken, when its in-band barrier waits in an input
     * ({@link BarrierHandlerContext#queuedBarrier}). Never for a savepoint, never once the
     * checkpoint is handled unaligned. Default: never.
     */
    default boolean canTimeoutAlignment(long checkpointId, BarrierHandlerContext ctx) {
        return false;
    }

    /**
     * {@code TimeoutAlignment(t, checkpointId)}: the switch to unaligned. The task snapshots at
     * once; on every input whose barrier has not arrived, an in-band barrier of the checkpoint
     * already queued is pulled ahead and the records it passes become that input's channel state
     * (later records of such an input are persisted as they are taken, until its barrier comes,
     * and a barrier queued later is pulled ahead by {@link #prioritizeBarrier});
     * the barrier goes on every output as an unaligned barrier, overtaking (and persisting) what
     * is queued there; every input is unblocked.
     *
     * @throws IllegalStateException if {@link #canTimeoutAlignment} is false
     */
    default BarrierHandlerState timeoutAlignment(long checkpointId, BarrierHandlerContext ctx) {
        throw Arrivals.timeoutNotEnabled(ctx, checkpointId, this);
    }

    /**
     * Alternating mode: the checkpoint whose in-band barrier, if one is queued on {@code input}
     * behind records, {@code PrioritizeBarrier} may move to the head now (the spec's
     * {@code unalignedAt[t]}: the checkpoint handled unaligned, or awaited unaligned after a passive
     * timeout, on an input that has not delivered its barrier); 0 if none. Default: 0.
     */
    default long prioritizable(int input, BarrierHandlerContext ctx) {
        return 0;
    }

    /**
     * {@code PrioritizeBarrier(t, e)}: the barrier of {@link #prioritizable} queued on {@code input}
     * jumps to the head of its channel as an unaligned barrier; the records it jumps over are
     * persisted as the input's channel state (Flink: {@code announcementReceived} in the unaligned
     * alternating states converts the announced barrier to a priority event at once).
     *
     * @throws IllegalStateException if {@link #prioritizable} is 0 for {@code input}
     */
    default BarrierHandlerState prioritizeBarrier(int input, BarrierHandlerContext ctx) {
        throw Arrivals.prioritizeNotEnabled(ctx, input, this);
    }

    /** Whether the task must not take anything from {@code input} now. */
    boolean isBlocked(int input);

    /**
     * The spec's {@code arrived[t]}: whether {@code input} has delivered the barrier of the
     * checkpoint being handled. Default: {@link #isBlocked} (an aligning state blocks exactly the
     * inputs that delivered it); a state that collects barriers without blocking says so itself.
     */
    default boolean arrived(int input) {
        return isBlocked(input);
    }

    /**
     * Alternating mode, the spec's {@code unalignedAt[t]}: the checkpoint the task handles
     * unaligned, or awaits unaligned after a passive timeout; 0 if none. Default: 0.
     */
    default long unalignedCheckpointId() {
        return 0;
    }

    /** The checkpoint whose barriers are being handled, or 0 when waiting for a first barrier. */
    long checkpointId();

    /** The spec's {@code current[t]}: see the class comment (0 before any checkpoint). */
    long latestCheckpointId();
}
