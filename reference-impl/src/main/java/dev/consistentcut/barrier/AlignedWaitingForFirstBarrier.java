package dev.consistentcut.barrier;

import dev.consistentcut.channel.Barrier;
import dev.consistentcut.record.Record;

/** Aligned mode, no checkpoint in progress: records pass; the first barrier starts an alignment. */
final class AlignedWaitingForFirstBarrier implements BarrierHandlerState {

    static final AlignedWaitingForFirstBarrier INSTANCE = new AlignedWaitingForFirstBarrier();

    private AlignedWaitingForFirstBarrier() {
    }

    @Override
    public BarrierHandlerState barrierReceived(int input, Barrier barrier, BarrierHandlerContext ctx) {
        return new AlignedCollectingBarriers(barrier.checkpointId(), ctx.inputCount())
                .barrierReceived(input, barrier, ctx);
    }

    @Override
    public BarrierHandlerState recordReceived(int input, Record record, BarrierHandlerContext ctx) {
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
    public String toString() {
        return "AlignedWaitingForFirstBarrier";
    }
}
