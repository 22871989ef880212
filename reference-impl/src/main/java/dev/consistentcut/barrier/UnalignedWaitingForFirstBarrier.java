package dev.consistentcut.barrier;

import dev.consistentcut.channel.Barrier;
import dev.consistentcut.record.Record;

/** Unaligned mode, no checkpoint in progress: records pass; the first barrier snapshots at once. */
final class UnalignedWaitingForFirstBarrier implements BarrierHandlerState {

    static final UnalignedWaitingForFirstBarrier INSTANCE = new UnalignedWaitingForFirstBarrier();

    private UnalignedWaitingForFirstBarrier() {
    }

    @Override
    public BarrierHandlerState barrierReceived(int input, Barrier barrier, BarrierHandlerContext ctx) {
        long c = barrier.checkpointId();
        ctx.snapshot(c);
        ctx.forwardBarrierOvertaking(c);
        return new UnalignedCollectingBarriers(c, ctx.inputCount()).barrierReceived(input, barrier, ctx);
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
        return "UnalignedWaitingForFirstBarrier";
    }
}
