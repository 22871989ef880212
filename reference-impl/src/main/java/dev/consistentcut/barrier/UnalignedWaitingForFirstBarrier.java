package dev.consistentcut.barrier;

import dev.consistentcut.message.Barrier;

/**
 * Unaligned mode, no checkpoint in progress ({@link AbstractWaitingForFirstBarrier}): the first
 * barrier of a newer checkpoint snapshots at once and forwards the barrier overtaking.
 */
final class UnalignedWaitingForFirstBarrier extends AbstractWaitingForFirstBarrier {

    static final UnalignedWaitingForFirstBarrier INITIAL = new UnalignedWaitingForFirstBarrier(0);

    UnalignedWaitingForFirstBarrier(long latest) {
        super(latest);
    }

    @Override
    BarrierHandlerState start(int input, Barrier barrier, BarrierHandlerContext ctx) {
        return UnalignedCollectingBarriers.start(barrier.checkpointId(), input, ctx);
    }

    @Override
    BarrierHandlerState waiting(long latest) {
        return new UnalignedWaitingForFirstBarrier(latest);
    }
}
