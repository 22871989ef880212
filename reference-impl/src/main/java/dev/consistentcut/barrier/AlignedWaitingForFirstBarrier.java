package dev.consistentcut.barrier;

import dev.consistentcut.message.Barrier;

/**
 * Aligned mode, no checkpoint in progress ({@link AbstractWaitingForFirstBarrier}): the first
 * barrier of a newer checkpoint starts an alignment.
 */
final class AlignedWaitingForFirstBarrier extends AbstractWaitingForFirstBarrier {

    static final AlignedWaitingForFirstBarrier INITIAL = new AlignedWaitingForFirstBarrier(0);

    AlignedWaitingForFirstBarrier(long latest) {
        super(latest);
    }

    @Override
    BarrierHandlerState start(int input, Barrier barrier, BarrierHandlerContext ctx) {
        return AlignedCollectingBarriers.align(barrier.checkpointId(), Arrivals.of(input), ctx);
    }

    @Override
    BarrierHandlerState waiting(long latest) {
        return new AlignedWaitingForFirstBarrier(latest);
    }
}
