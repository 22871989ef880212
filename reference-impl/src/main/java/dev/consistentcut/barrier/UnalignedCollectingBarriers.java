package dev.consistentcut.barrier;

import dev.consistentcut.message.Record;

/**
 * Unaligned mode, after the snapshot for {@code checkpointId} ({@link AbstractCollectingBarriers}):
 * nothing is blocked; a record taken from an input whose barrier has not arrived yet was in
 * flight at the cut, so it is persisted as that input's channel state (and processed as usual).
 * When every input has arrived or ended the task acknowledges.
 */
final class UnalignedCollectingBarriers extends AbstractCollectingBarriers {

    private UnalignedCollectingBarriers(long checkpointId, Arrivals arrived) {
        super(checkpointId, arrived);
    }

    /** First barrier of {@code c}, on {@code input}: snapshot, forward overtaking, then collect the rest. */
    static BarrierHandlerState start(long c, int input, BarrierHandlerContext ctx) {
        ctx.snapshot(c);
        ctx.forwardBarrierOvertaking(c);
        Arrivals arrived = Arrivals.of(input);
        return new UnalignedCollectingBarriers(c, arrived).collect(arrived, ctx);
    }

    @Override
    BarrierHandlerState collecting(Arrivals now) {
        return new UnalignedCollectingBarriers(checkpointId, now);
    }

    @Override
    void complete(BarrierHandlerContext ctx) {
        ctx.acknowledge(checkpointId);
    }

    @Override
    BarrierHandlerState waiting(long latest) {
        return new UnalignedWaitingForFirstBarrier(latest);
    }

    @Override
    public BarrierHandlerState recordReceived(int input, Record record, BarrierHandlerContext ctx) {
        if (!arrived.has(input)) {
            ctx.persistInFlight(input, record);
        }
        return this;
    }
}
