package dev.consistentcut.barrier;

import dev.consistentcut.message.Barrier;
import dev.consistentcut.message.Record;

/**
 * Unaligned mode, no checkpoint in progress: records pass; the first barrier of a checkpoint newer
 * than {@link #latestCheckpointId()} snapshots at once (or, if the checkpoint is known to be
 * aborted, abandons it); older barriers (of a finished or aborted checkpoint, still travelling)
 * are dropped. Cancellation barriers and notifications as in aligned mode.
 */
final class UnalignedWaitingForFirstBarrier implements BarrierHandlerState {

    static final UnalignedWaitingForFirstBarrier INITIAL = new UnalignedWaitingForFirstBarrier(0);

    private final long latest;

    UnalignedWaitingForFirstBarrier(long latest) {
        this.latest = latest;
    }

    @Override
    public BarrierHandlerState barrierReceived(int input, Barrier barrier, BarrierHandlerContext ctx) {
        long c = barrier.checkpointId();
        if (c <= latest) {
            return this; // obsolete
        }
        if (ctx.isAborted(c)) {
            return cancelBarrierReceived(input, c, ctx);
        }
        return UnalignedCollectingBarriers.start(c, input, ctx);
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
        return new UnalignedWaitingForFirstBarrier(checkpointId);
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
        return "UnalignedWaitingForFirstBarrier[latest " + latest + "]";
    }
}
