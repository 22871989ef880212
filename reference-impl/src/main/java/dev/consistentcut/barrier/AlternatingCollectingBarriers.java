package dev.consistentcut.barrier;

import dev.consistentcut.message.Barrier;

/**
 * Alternating mode, aligning checkpoint {@code checkpointId} (Flink:
 * {@code AlternatingCollectingBarriers}): as {@link AlignedCollectingBarriers}, every input whose
 * barrier arrived is blocked and the last one completes the alignment (snapshot, forward in-band,
 * acknowledge). Two ways out to unaligned: the active timeout ({@code TimeoutAlignment}, unless
 * the checkpoint is a savepoint) and an unaligned barrier of the checkpoint on an unblocked input
 * (an upstream task switched). Either is the switch (the spec's {@code Switch}): snapshot now,
 * forward unaligned, unblock every input; the inputs that already delivered the barrier persist
 * nothing (what follows their barrier is after the cut), the others persist each record taken
 * until their barrier comes: exactly what was ahead of it.
 */
final class AlternatingCollectingBarriers extends AbstractAlignedCollectingBarriers {

    private final boolean savepoint;
    private final AlternatingDials dials;

    private AlternatingCollectingBarriers(long checkpointId, boolean savepoint, Arrivals blocked, AlternatingDials dials) {
        super(checkpointId, blocked);
        this.savepoint = savepoint;
        this.dials = dials;
    }

    /** The spec's {@code Align} for an aligned {@code barrier}: completes it if every input arrived or ended. */
    static BarrierHandlerState align(Barrier barrier, Arrivals arrived, AlternatingDials dials, BarrierHandlerContext ctx) {
        return new AlternatingCollectingBarriers(barrier.checkpointId(), barrier.savepoint(), arrived, dials)
                .collect(arrived, ctx);
    }

    @Override
    BarrierHandlerState collecting(Arrivals now) {
        return new AlternatingCollectingBarriers(checkpointId, savepoint, now, dials);
    }

    @Override
    void complete(BarrierHandlerContext ctx) {
        ctx.snapshot(checkpointId);
        ctx.forward(new Barrier(checkpointId, true, savepoint));
        ctx.acknowledge(checkpointId);
    }

    @Override
    BarrierHandlerState waiting(long latest) {
        return new AlternatingWaitingForFirstBarrier(latest, dials);
    }

    /** An unaligned barrier (an upstream task switched) switches this task too. */
    @Override
    BarrierHandlerState arrive(Barrier barrier, Arrivals now, BarrierHandlerContext ctx) {
        if (dials.unaligned(barrier)) {
            return AlternatingCollectingBarriersUnaligned.switchToUnaligned(checkpointId, now, false, dials, ctx);
        }
        return collect(now, ctx);
    }

    @Override
    public boolean canTimeoutAlignment(long c, BarrierHandlerContext ctx) {
        return c == checkpointId && dials.maySwitch(savepoint);
    }

    /** The active timeout: the inputs blocked so far have arrived; the rest persist what is ahead of their barrier. */
    @Override
    public BarrierHandlerState timeoutAlignment(long c, BarrierHandlerContext ctx) {
        if (!canTimeoutAlignment(c, ctx)) {
            throw Arrivals.timeoutNotEnabled(ctx, c, this);
        }
        return AlternatingCollectingBarriersUnaligned.switchToUnaligned(c, arrived, true, dials, ctx);
    }

    @Override
    String inputs() {
        return (savepoint ? ", savepoint" : "") + super.inputs();
    }
}
