package dev.consistentcut.barrier;

import dev.consistentcut.channel.Barrier;
import dev.consistentcut.record.Record;

/**
 * Aligned mode, no checkpoint in progress: records pass; the first barrier of a checkpoint newer
 * than {@link #latestCheckpointId()} starts an alignment; older barriers are obsolete and dropped.
 * A cancellation barrier or abort notification of a checkpoint the task has not seen yet is
 * remembered (its barriers will be dropped) and forwarded.
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
        if (c <= latest || ctx.isAborted(c)) {
            return this; // obsolete: finished, abandoned or aborted here
        }
        return AlignedCollectingBarriers.align(c, Arrivals.of(input), ctx);
    }

    @Override
    public BarrierHandlerState recordReceived(int input, Record record, BarrierHandlerContext ctx) {
        return this;
    }

    @Override
    public BarrierHandlerState cancelBarrierReceived(int input, long checkpointId, BarrierHandlerContext ctx) {
        return checkpointAborted(checkpointId, ctx);
    }

    @Override
    public BarrierHandlerState checkpointAborted(long checkpointId, BarrierHandlerContext ctx) {
        return Arrivals.abortAhead(this, latest, checkpointId, ctx);
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
