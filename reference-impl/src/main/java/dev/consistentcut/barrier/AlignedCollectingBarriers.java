package dev.consistentcut.barrier;

/**
 * Aligned mode, aligning checkpoint {@code checkpointId} ({@link AbstractAlignedCollectingBarriers}):
 * when every input has arrived or ended the alignment completes: snapshot, forward in-band,
 * unblock all, acknowledge.
 */
final class AlignedCollectingBarriers extends AbstractAlignedCollectingBarriers {

    private AlignedCollectingBarriers(long checkpointId, Arrivals blocked) {
        super(checkpointId, blocked);
    }

    /** The spec's {@code Align}: completes {@code c} if every input has arrived or ended, else keeps aligning. */
    static BarrierHandlerState align(long c, Arrivals arrived, BarrierHandlerContext ctx) {
        return new AlignedCollectingBarriers(c, arrived).collect(arrived, ctx);
    }

    @Override
    BarrierHandlerState collecting(Arrivals now) {
        return new AlignedCollectingBarriers(checkpointId, now);
    }

    @Override
    void complete(BarrierHandlerContext ctx) {
        ctx.snapshot(checkpointId);
        ctx.forwardBarrier(checkpointId);
        ctx.acknowledge(checkpointId);
    }

    @Override
    BarrierHandlerState waiting(long latest) {
        return new AlignedWaitingForFirstBarrier(latest);
    }
}
