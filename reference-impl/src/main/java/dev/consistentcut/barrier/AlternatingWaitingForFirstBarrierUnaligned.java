package dev.consistentcut.barrier;

import dev.consistentcut.message.Barrier;
import dev.consistentcut.message.Record;

/**
 * Alternating mode, after a passive timeout of checkpoint {@code pending} (Flink:
 * {@code AlternatingWaitingForFirstBarrierUnaligned}; the spec: {@code handling[t] = 0},
 * {@code unalignedAt[t] = c}): the queued barriers of it were prioritized (they head their
 * channels, unaligned) and the records they overtook are kept as channel state, but the task has
 * not taken a barrier of it yet, so no snapshot either. Records pass unpersisted (they are taken
 * before the snapshot). The first barrier of {@code pending}, whatever its flag, starts it
 * unaligned: snapshot, forward unaligned, collect the rest. A newer barrier means
 * {@code pending} went away (one checkpoint in flight): its kept state is dropped.
 */
final class AlternatingWaitingForFirstBarrierUnaligned implements BarrierHandlerState {

    private final long pending;
    private final long latest;
    private final AlternatingDials dials;

    AlternatingWaitingForFirstBarrierUnaligned(long pending, long latest, AlternatingDials dials) {
        this.pending = pending;
        this.latest = latest;
        this.dials = dials;
    }

    @Override
    public BarrierHandlerState barrierReceived(int input, Barrier barrier, BarrierHandlerContext ctx) {
        long c = barrier.checkpointId();
        if (c < pending) {
            return this; // obsolete (latest < pending)
        }
        if (c > pending) {
            ctx.discard(pending);
            return new AlternatingWaitingForFirstBarrier(latest, dials).barrierReceived(input, barrier, ctx);
        }
        if (ctx.isAborted(c)) {
            return cancelBarrierReceived(input, c, ctx);
        }
        return AlternatingCollectingBarriersUnaligned.switchToUnaligned(c, Arrivals.of(input), true, dials, ctx);
    }

    @Override
    public long prioritizable(int input, BarrierHandlerContext ctx) {
        return ctx.inputEnded(input) ? 0 : pending;
    }

    /** A barrier of {@code pending} queued since the passive timeout is prioritized as it comes (Flink: {@code announcementReceived}). */
    @Override
    public BarrierHandlerState prioritizeBarrier(int input, BarrierHandlerContext ctx) {
        if (prioritizable(input, ctx) == 0) {
            return BarrierHandlerState.super.prioritizeBarrier(input, ctx);
        }
        ctx.prioritizeBarrier(input, pending, dials.persists(false));
        return this;
    }

    @Override
    public BarrierHandlerState recordReceived(int input, Record record, BarrierHandlerContext ctx) {
        return this;
    }

    @Override
    public BarrierHandlerState cancelBarrierReceived(int input, long checkpointId, BarrierHandlerContext ctx) {
        if (checkpointId < pending) {
            return this; // obsolete (latest < pending)
        }
        ctx.abandon(checkpointId); // drops the kept channel state too
        return new AlternatingWaitingForFirstBarrier(checkpointId, dials);
    }

    @Override
    public BarrierHandlerState checkpointAborted(long checkpointId, BarrierHandlerContext ctx) {
        if (checkpointId != pending) {
            return Arrivals.rememberAbort(this, checkpointId, ctx);
        }
        ctx.abandon(checkpointId);
        return new AlternatingWaitingForFirstBarrier(checkpointId, dials);
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
        return "AlternatingWaitingForFirstBarrierUnaligned[pending " + pending + ", latest " + latest + "]";
    }
}
