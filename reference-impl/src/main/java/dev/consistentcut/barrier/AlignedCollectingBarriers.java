package dev.consistentcut.barrier;

import dev.consistentcut.channel.Barrier;
import dev.consistentcut.record.Record;
import java.util.BitSet;

/**
 * Aligned mode, aligning checkpoint {@code checkpointId}: every input whose barrier has arrived is
 * blocked, so nothing after the barrier gets processed before the snapshot. When every input has
 * arrived or ended the alignment completes: snapshot, forward in-band, unblock all, acknowledge.
 * A newer barrier subsumes the alignment (the task declines the older checkpoint); a
 * cancellation or abort of it abandons it and unblocks every input at once; one of a newer
 * checkpoint is remembered and forwarded.
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
        if (c < checkpointId || ctx.isAborted(c)) {
            return this; // obsolete
        }
        if (c > checkpointId) {
            // Subsumed (Flink: SingleCheckpointBarrierHandler cancels the pending alignment).
            ctx.abandon(checkpointId);
            ctx.decline(checkpointId);
            return align(c, Arrivals.of(input), ctx);
        }
        if (blocked.get(input)) {
            throw Arrivals.secondBarrier(ctx, input, checkpointId);
        }
        BitSet arrived = (BitSet) blocked.clone();
        arrived.set(input);
        return align(checkpointId, arrived, ctx);
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
        return checkpointAborted(c, ctx);
    }

    @Override
    public BarrierHandlerState checkpointAborted(long c, BarrierHandlerContext ctx) {
        if (c < checkpointId) {
            return this; // an older checkpoint, already left behind
        }
        if (c > checkpointId) {
            return Arrivals.abortAhead(this, checkpointId, c, ctx); // keeps handling its own
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
