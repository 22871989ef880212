package dev.consistentcut.barrier;

import dev.consistentcut.message.Barrier;
import dev.consistentcut.message.Record;

/**
 * Alternating mode (aligned checkpoints with an alignment timeout), no checkpoint in progress
 * (Flink: {@code AlternatingWaitingForFirstBarrier}; the spec: {@code handling[t] = 0},
 * {@code unalignedAt[t] = 0}). Records pass. The first aligned barrier of a checkpoint newer than
 * {@link #latestCheckpointId()} starts an alignment; the first unaligned one (an upstream task
 * switched) starts the checkpoint unaligned at once. The passive timeout: when a checkpoint's
 * in-band barrier waits in an input (behind records, Flink's announcement) and the checkpoint is
 * older than the timeout, {@code TimeoutAlignment} prioritizes every queued barrier of it (each
 * jumps to the head of its channel as unaligned, the records it jumped over become that
 * channel's state) and the task waits for the first of them in
 * {@link AlternatingWaitingForFirstBarrierUnaligned}. Obsolete barriers, cancellations and abort
 * notifications as in aligned mode.
 */
final class AlternatingWaitingForFirstBarrier implements BarrierHandlerState {

    private final long latest;
    private final AlternatingDials dials;

    AlternatingWaitingForFirstBarrier(long latest, AlternatingDials dials) {
        this.latest = latest;
        this.dials = dials;
    }

    @Override
    public BarrierHandlerState barrierReceived(int input, Barrier barrier, BarrierHandlerContext ctx) {
        long c = barrier.checkpointId();
        if (c <= latest) {
            return this; // obsolete: finished or abandoned here
        }
        if (ctx.isAborted(c)) {
            return cancelBarrierReceived(input, c, ctx);
        }
        if (dials.unaligned(barrier)) {
            return AlternatingCollectingBarriersUnaligned.switchToUnaligned(c, Arrivals.of(input), false, dials, ctx);
        }
        return AlternatingCollectingBarriers.align(barrier, Arrivals.of(input), dials, ctx);
    }

    @Override
    public boolean canTimeoutAlignment(long checkpointId, BarrierHandlerContext ctx) {
        if (checkpointId <= latest || ctx.isAborted(checkpointId)) {
            return false;
        }
        for (int i = 0; i < ctx.inputCount(); i++) {
            Barrier b = ctx.queuedBarrier(i);
            if (b != null && b.checkpointId() == checkpointId && b.aligned() && dials.maySwitch(b.savepoint())) {
                return true;
            }
        }
        return false;
    }

    /** The passive timeout: prioritize every queued barrier of {@code checkpointId}; handle it unaligned when one comes. */
    @Override
    public BarrierHandlerState timeoutAlignment(long checkpointId, BarrierHandlerContext ctx) {
        if (!canTimeoutAlignment(checkpointId, ctx)) {
            throw Arrivals.timeoutNotEnabled(ctx, checkpointId, this);
        }
        for (int i = 0; i < ctx.inputCount(); i++) {
            if (!ctx.inputEnded(i)) {
                ctx.prioritizeBarrier(i, checkpointId, dials.persists(false));
            }
        }
        ctx.switched(checkpointId, true);
        return new AlternatingWaitingForFirstBarrierUnaligned(checkpointId, latest, dials);
    }

    @Override
    public BarrierHandlerState recordReceived(int input, Record record, BarrierHandlerContext ctx) {
        return this;
    }

    @Override
    public BarrierHandlerState cancelBarrierReceived(int input, long checkpointId, BarrierHandlerContext ctx) {
        if (checkpointId <= latest) {
            return this;
        }
        ctx.abandon(checkpointId);
        return new AlternatingWaitingForFirstBarrier(checkpointId, dials);
    }

    @Override
    public BarrierHandlerState checkpointAborted(long checkpointId, BarrierHandlerContext ctx) {
        return Arrivals.rememberAbort(this, checkpointId, ctx);
    }

    @Override
    public BarrierHandlerState endOfPartitionReceived(int input, BarrierHandlerContext ctx) {
        return this;
    }

    @Override
    public boolean isBlocked(int input) {
        return false;
    }

    @Override
    public long checkpointId() {
        return 0;
    }

    @Override
    public long latestCheckpointId() {
        return latest;
    }

    @Override
    public String toString() {
        return "AlternatingWaitingForFirstBarrier[latest " + latest + "]";
    }
}
