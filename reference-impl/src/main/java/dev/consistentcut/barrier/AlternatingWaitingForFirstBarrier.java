package dev.consistentcut.barrier;

import dev.consistentcut.message.Barrier;

/**
 * Alternating mode (aligned checkpoints with an alignment timeout), no checkpoint in progress
 * (Flink: {@code AlternatingWaitingForFirstBarrier}; the spec: {@code handling[t] = 0},
 * {@code unalignedAt[t] = 0}), otherwise as {@link AbstractWaitingForFirstBarrier}. The first
 * aligned barrier of a checkpoint newer than {@link #latestCheckpointId()} starts an alignment;
 * the first unaligned one (an upstream task switched) starts the checkpoint unaligned at once.
 * The passive timeout: when a checkpoint's in-band barrier waits in an input (behind records,
 * Flink's announcement) and the checkpoint is older than the timeout, {@code TimeoutAlignment}
 * prioritizes every queued barrier of it (each jumps to the head of its channel as unaligned, the
 * records it jumped over become that channel's state) and the task waits for the first of them in
 * {@link AlternatingWaitingForFirstBarrierUnaligned}.
 */
final class AlternatingWaitingForFirstBarrier extends AbstractWaitingForFirstBarrier {

    private final AlternatingDials dials;

    AlternatingWaitingForFirstBarrier(long latest, AlternatingDials dials) {
        super(latest);
        this.dials = dials;
    }

    @Override
    BarrierHandlerState start(int input, Barrier barrier, BarrierHandlerContext ctx) {
        if (dials.unaligned(barrier)) {
            return AlternatingCollectingBarriersUnaligned.switchToUnaligned(barrier.checkpointId(), Arrivals.of(input),
                    false, dials, ctx);
        }
        return AlternatingCollectingBarriers.align(barrier, Arrivals.of(input), dials, ctx);
    }

    @Override
    BarrierHandlerState waiting(long latest) {
        return new AlternatingWaitingForFirstBarrier(latest, dials);
    }

    @Override
    public boolean canTimeoutAlignment(long checkpointId, BarrierHandlerContext ctx) {
        if (checkpointId <= latest || ctx.isAborted(checkpointId)) {
            return false;
        }
        for (int i = 0; i < ctx.inputCount(); i++) {
            Barrier b = ctx.queuedBarrier(i);
            if (b != null && b.checkpointId() == checkpointId && b.aligned() && dials.maySwitch(b.savepoint())) {
                return true;
            }
        }
        return false;
    }

    /** The passive timeout: prioritize every queued barrier of {@code checkpointId}; handle it unaligned when one comes. */
    @Override
    public BarrierHandlerState timeoutAlignment(long checkpointId, BarrierHandlerContext ctx) {
        if (!canTimeoutAlignment(checkpointId, ctx)) {
            throw Arrivals.timeoutNotEnabled(ctx, checkpointId, this);
        }
        Arrivals.NONE.prioritizePending(checkpointId, dials.persists(false), ctx);
        ctx.switched(checkpointId, true);
        return new AlternatingWaitingForFirstBarrierUnaligned(checkpointId, latest, dials);
    }
}
