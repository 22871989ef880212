package dev.consistentcut.barrier;

import dev.consistentcut.message.Barrier;
import dev.consistentcut.message.Record;
import java.util.BitSet;

/**
 * Alternating mode, aligning checkpoint {@code checkpointId} (Flink:
 * {@code AlternatingCollectingBarriers}): as {@link AlignedCollectingBarriers}, every input whose
 * barrier arrived is blocked and the last one completes the alignment (snapshot, forward in-band,
 * acknowledge). Two ways out to unaligned: the active timeout ({@code TimeoutAlignment}, unless
 * the checkpoint is a savepoint) and an unaligned barrier of the checkpoint on an unblocked input
 * (an upstream task switched). Either is the switch (the spec's {@code Switch}): snapshot now,
 * forward unaligned, unblock every input; the inputs that already delivered the barrier persist
 * nothing (what follows their barrier is after the cut), the others persist each record taken
 * until their barrier comes: exactly what was ahead of it.
 */
final class AlternatingCollectingBarriers implements BarrierHandlerState {

    private final long checkpointId;
    private final boolean savepoint;
    private final BitSet blocked;
    private final AlternatingDials dials;

    private AlternatingCollectingBarriers(long checkpointId, boolean savepoint, BitSet blocked, AlternatingDials dials) {
        this.checkpointId = checkpointId;
        this.savepoint = savepoint;
        this.blocked = blocked;
        this.dials = dials;
    }

    /** The spec's {@code Align} for an aligned {@code barrier}: completes it if every input arrived or ended. */
    static BarrierHandlerState align(Barrier barrier, BitSet arrived, AlternatingDials dials, BarrierHandlerContext ctx) {
        long c = barrier.checkpointId();
        if (!Arrivals.allArrived(arrived, ctx)) {
            return new AlternatingCollectingBarriers(c, barrier.savepoint(), arrived, dials);
        }
        ctx.snapshot(c);
        ctx.forward(new Barrier(c, true, barrier.savepoint()));
        ctx.acknowledge(c);
        return new AlternatingWaitingForFirstBarrier(c, dials); // unblocks every input
    }

    private Barrier barrier() {
        return new Barrier(checkpointId, true, savepoint);
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
        if (dials.unaligned(barrier)) {
            return AlternatingCollectingBarriersUnaligned.switchToUnaligned(checkpointId, arrived, false, dials, ctx);
        }
        return align(barrier(), arrived, dials, ctx);
    }

    @Override
    public boolean canTimeoutAlignment(long c, BarrierHandlerContext ctx) {
        return c == checkpointId && dials.maySwitch(savepoint);
    }

    /** The active timeout: the inputs blocked so far have arrived; the rest persist what is ahead of their barrier. */
    @Override
    public BarrierHandlerState timeoutAlignment(long c, BarrierHandlerContext ctx) {
        if (!canTimeoutAlignment(c, ctx)) {
            throw Arrivals.timeoutNotEnabled(ctx, c, this);
        }
        return AlternatingCollectingBarriersUnaligned.switchToUnaligned(c, blocked, true, dials, ctx);
    }

    private BarrierHandlerState subsume(BarrierHandlerContext ctx) {
        ctx.abandon(checkpointId);
        ctx.decline(checkpointId);
        return new AlternatingWaitingForFirstBarrier(checkpointId, dials);
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
            return this;
        }
        if (c > checkpointId) {
            return subsume(ctx).cancelBarrierReceived(input, c, ctx);
        }
        ctx.abandon(c);
        return new AlternatingWaitingForFirstBarrier(c, dials);
    }

    @Override
    public BarrierHandlerState checkpointAborted(long c, BarrierHandlerContext ctx) {
        if (c != checkpointId) {
            return Arrivals.rememberAbort(this, c, ctx);
        }
        ctx.abandon(c);
        return new AlternatingWaitingForFirstBarrier(c, dials);
    }

    @Override
    public BarrierHandlerState endOfPartitionReceived(int input, BarrierHandlerContext ctx) {
        return align(barrier(), blocked, dials, ctx);
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
        return "AlternatingCollectingBarriers[checkpoint " + checkpointId + (savepoint ? ", savepoint" : "")
                + ", blocked " + blocked + "]";
    }
}
