package dev.consistentcut.barrier;

import dev.consistentcut.message.Barrier;
import dev.consistentcut.message.Record;
import java.util.BitSet;

/**
 * Aligned mode, aligning checkpoint {@code checkpointId}: every input whose barrier has arrived is
 * blocked, so nothing after the barrier gets processed before the snapshot. When every input has
 * arrived or ended the alignment completes: snapshot, forward in-band, unblock all, acknowledge.
 *
 * <p>Lifecycle: an abort notification or cancellation barrier of this checkpoint abandons it and
 * unblocks every input at once. A barrier or cancellation barrier of a newer checkpoint on an
 * unblocked input means this checkpoint's barrier will never come on that input (the upstream
 * task went past it without forwarding it), so the alignment is subsumed: abandoned and declined,
 * and the newer one handled. A notification of a newer checkpoint's abort is only remembered.
 */
final class AlignedCollectingBarriers implements BarrierHandlerState {

    private final long checkpointId;
    private final BitSet blocked;

    private AlignedCollectingBarriers(long checkpointId, BitSet blocked) {
        this.checkpointId = checkpointId;
        this.blocked = blocked;
    }

    /** The spec's {@code Align}: completes {@code c} if every input has arrived or ended, else keeps aligning. */
    static BarrierHandlerState align(long c, BitSet arrived, BarrierHandlerContext ctx) {
        if (!Arrivals.allArrived(arrived, ctx)) {
            return new AlignedCollectingBarriers(c, arrived);
        }
        ctx.snapshot(c);
        ctx.forwardBarrier(c);
        ctx.acknowledge(c);
        return new AlignedWaitingForFirstBarrier(c); // unblocks every input
    }

    @Override
    public BarrierHandlerState barrierReceived(int input, Barrier barrier, BarrierHandlerContext ctx) {
        long c = barrier.checkpointId();
        if (c < checkpointId) {
            return this; // obsolete
        }
        if (c > checkpointId) {
            return subsume(ctx).barrierReceived(input, barrier, ctx);
        }
        if (blocked.get(input)) {
            throw Arrivals.secondBarrier(ctx, input, checkpointId);
        }
        BitSet arrived = (BitSet) blocked.clone();
        arrived.set(input);
        return align(checkpointId, arrived, ctx);
    }

    /** Gives this alignment up for a newer checkpoint (Flink: SingleCheckpointBarrierHandler, subsumed). */
    private BarrierHandlerState subsume(BarrierHandlerContext ctx) {
        ctx.abandon(checkpointId);
        ctx.decline(checkpointId);
        return new AlignedWaitingForFirstBarrier(checkpointId);
    }

    @Override
    public BarrierHandlerState recordReceived(int input, Record record, BarrierHandlerContext ctx) {
        if (blocked.get(input)) {
            throw new IllegalStateException("task " + ctx.taskId() + " input " + input + ": took record "
                    + record.id() + " from an input blocked for checkpoint " + checkpointId);
        }
        return this;
    }

    @Override
    public BarrierHandlerState cancelBarrierReceived(int input, long c, BarrierHandlerContext ctx) {
        if (c < checkpointId) {
            return this; // obsolete
        }
        if (c > checkpointId) {
            return subsume(ctx).cancelBarrierReceived(input, c, ctx);
        }
        ctx.abandon(c);
        return new AlignedWaitingForFirstBarrier(c); // unblocks every input at once
    }

    @Override
    public BarrierHandlerState checkpointAborted(long c, BarrierHandlerContext ctx) {
        if (c != checkpointId) {
            return Arrivals.rememberAbort(this, c, ctx);
        }
        ctx.abandon(c);
        return new AlignedWaitingForFirstBarrier(c); // unblocks every input at once
    }

    @Override
    public BarrierHandlerState endOfPartitionReceived(int input, BarrierHandlerContext ctx) {
        return align(checkpointId, blocked, ctx);
    }

    @Override
    public boolean isBlocked(int input) {
        return blocked.get(input);
    }

    @Override
    public long checkpointId() {
        return checkpointId;
    }

    @Override
    public long latestCheckpointId() {
        return checkpointId;
    }

    @Override
    public String toString() {
        return "AlignedCollectingBarriers[checkpoint " + checkpointId + ", blocked " + blocked + "]";
    }
}
