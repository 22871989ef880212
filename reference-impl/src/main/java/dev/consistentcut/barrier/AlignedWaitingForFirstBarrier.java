package dev.consistentcut.barrier;

import dev.consistentcut.message.Barrier;
import dev.consistentcut.message.Record;

/**
 * Aligned mode, no checkpoint in progress: records pass; the first barrier of a checkpoint newer
 * than {@link #latestCheckpointId()} starts an alignment (or, if the checkpoint is known to be
 * aborted, abandons it at once); older barriers are obsolete and dropped. A cancellation barrier
 * of a newer checkpoint is forwarded and the task goes past it; an abort notification of one is
 * remembered.
 */
final class AlignedWaitingForFirstBarrier implements BarrierHandlerState {

    static final AlignedWaitingForFirstBarrier INITIAL = new AlignedWaitingForFirstBarrier(0);

    private final long latest;

    AlignedWaitingForFirstBarrier(long latest) {
        this.latest = latest;
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
        return AlignedCollectingBarriers.align(c, Arrivals.of(input), ctx);
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
        return new AlignedWaitingForFirstBarrier(checkpointId);
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
        return "AlignedWaitingForFirstBarrier[latest " + latest + "]";
    }
}
