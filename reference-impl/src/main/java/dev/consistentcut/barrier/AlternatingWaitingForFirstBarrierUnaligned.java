package dev.consistentcut.barrier;

import dev.consistentcut.message.Barrier;

/**
 * Alternating mode, after a passive timeout of checkpoint {@code pending} (Flink:
 * {@code AlternatingWaitingForFirstBarrierUnaligned}; the spec: {@code handling[t] = 0},
 * {@code unalignedAt[t] = c}): the queued barriers of it were prioritized (they head their
 * channels, unaligned) and the records they overtook are kept as channel state, but the task has
 * not taken a barrier of it yet, so no snapshot either. Records pass unpersisted (they are taken
 * before the snapshot). The first barrier of {@code pending}, whatever its flag, starts it
 * unaligned: snapshot, forward unaligned, collect the rest. A barrier or cancellation barrier
 * older than {@code pending} is obsolete. A newer barrier means {@code pending} went away (one
 * checkpoint in flight): its kept state is dropped. Otherwise as {@link AbstractWaitingForFirstBarrier}.
 */
final class AlternatingWaitingForFirstBarrierUnaligned extends AbstractWaitingForFirstBarrier
        implements AlternatingPrioritizing {

    private final long pending;
    private final AlternatingDials dials;

    AlternatingWaitingForFirstBarrierUnaligned(long pending, long latest, AlternatingDials dials) {
        super(latest);
        this.pending = pending;
        this.dials = dials;
    }

    @Override
    public AlternatingDials dials() {
        return dials;
    }

    /** Below {@code pending}, which is above {@code latest}. */
    @Override
    boolean obsolete(long c) {
        return c < pending;
    }

    @Override
    public BarrierHandlerState barrierReceived(int input, Barrier barrier, BarrierHandlerContext ctx) {
        if (barrier.checkpointId() > pending) {
            ctx.discard(pending);
            return waiting(latest).barrierReceived(input, barrier, ctx);
        }
        return super.barrierReceived(input, barrier, ctx);
    }

    /** The first barrier of {@code pending}. */
    @Override
    BarrierHandlerState start(int input, Barrier barrier, BarrierHandlerContext ctx) {
        return AlternatingCollectingBarriersUnaligned.switchToUnaligned(pending, Arrivals.of(input), true, dials, ctx);
    }

    @Override
    BarrierHandlerState waiting(long latest) {
        return new AlternatingWaitingForFirstBarrier(latest, dials);
    }

    @Override
    public long unalignedCheckpointId() {
        return pending;
    }

    @Override
    public long prioritizable(int input, BarrierHandlerContext ctx) {
        return Arrivals.NONE.pending(input, ctx) ? pending : 0;
    }

    @Override
    public BarrierHandlerState checkpointAborted(long checkpointId, BarrierHandlerContext ctx) {
        if (checkpointId != pending) {
            return super.checkpointAborted(checkpointId, ctx);
        }
        ctx.abandon(checkpointId); // drops the kept channel state too
        return waiting(checkpointId);
    }

    @Override
    public String toString() {
        return "AlternatingWaitingForFirstBarrierUnaligned[pending " + pending + ", latest " + latest + "]";
    }
}
