package dev.consistentcut.barrier;

import dev.consistentcut.message.Barrier;
import dev.consistentcut.message.Record;
import java.util.BitSet;

/**
 * Alternating mode, checkpoint {@code checkpointId} switched to unaligned here (Flink:
 * {@code AlternatingCollectingBarriersUnaligned}): the snapshot is taken and the barrier went on
 * as unaligned; nothing is blocked; a record taken from an input whose barrier has not arrived was
 * in flight at the cut, so it is persisted as that input's channel state. The barrier of an input
 * may come aligned (its sender did not switch) or unaligned: either is an arrival. When every
 * input has arrived or ended the task acknowledges and waits for the next checkpoint, aligned
 * again. The alignment timeout does not apply any more. A barrier of the checkpoint queued on
 * a pending input behind records is prioritized ({@code PrioritizeBarrier}, Flink's
 * {@code announcementReceived} here): it overtakes them, and they are persisted at once. The spec:
 * {@code handling[t] = c}, {@code unalignedAt[t] = c}.
 */
final class AlternatingCollectingBarriersUnaligned implements BarrierHandlerState {

    private final long checkpointId;
    private final BitSet arrived;
    private final AlternatingDials dials;

    private AlternatingCollectingBarriersUnaligned(long checkpointId, BitSet arrived, AlternatingDials dials) {
        this.checkpointId = checkpointId;
        this.arrived = arrived;
        this.dials = dials;
    }

    /**
     * The switch (the spec's {@code Switch}: an active timeout, the first barrier after a passive
     * one, or an unaligned barrier from upstream): snapshot now, forward the barrier unaligned,
     * overtaking the outputs' queues (persisted as their channel state), then collect the rest
     * with {@code arrived}; records of the other inputs are persisted as they are taken.
     *
     * @param timeout whether this task's own timeout caused it (else it only follows an upstream switch)
     */
    static BarrierHandlerState switchToUnaligned(long c, BitSet arrived, boolean timeout, AlternatingDials dials,
                                                 BarrierHandlerContext ctx) {
        ctx.snapshot(c);
        ctx.forward(new Barrier(c, false, false));
        // The spec's PrioritizedIn in Switch; Flink's ChannelState.prioritizeAllAnnouncements in
        // AlternatingCollectingBarriers.alignmentTimeout: the pending inputs' queued barriers
        // overtake their backlog now, instead of the task waiting for them behind it (issue 11's
        // 2.5 s under heavy backpressure).
        for (int i = 0; i < ctx.inputCount(); i++) {
            if (!arrived.get(i) && !ctx.inputEnded(i)) {
                ctx.prioritizeBarrier(i, c, dials.persists(false));
            }
        }
        ctx.switched(c, timeout);
        return collect(c, arrived, dials, ctx);
    }

    @Override
    public long prioritizable(int input, BarrierHandlerContext ctx) {
        return arrived.get(input) || ctx.inputEnded(input) ? 0 : checkpointId;
    }

    /** A barrier of the checkpoint queued since the switch overtakes its input's backlog (Flink: {@code announcementReceived}). */
    @Override
    public BarrierHandlerState prioritizeBarrier(int input, BarrierHandlerContext ctx) {
        if (prioritizable(input, ctx) == 0) {
            return BarrierHandlerState.super.prioritizeBarrier(input, ctx);
        }
        ctx.prioritizeBarrier(input, checkpointId, dials.persists(false));
        return this;
    }

    private static BarrierHandlerState collect(long c, BitSet arrived, AlternatingDials dials, BarrierHandlerContext ctx) {
        if (!Arrivals.allArrived(arrived, ctx)) {
            return new AlternatingCollectingBarriersUnaligned(c, arrived, dials);
        }
        ctx.acknowledge(c);
        return new AlternatingWaitingForFirstBarrier(c, dials);
    }

    @Override
    public BarrierHandlerState barrierReceived(int input, Barrier barrier, BarrierHandlerContext ctx) {
        long c = barrier.checkpointId();
        if (c < checkpointId) {
            return this; // obsolete
        }
        if (c > checkpointId) {
            return subsume(ctx).barrierReceived(input, barrier, ctx);
        }
        if (arrived.get(input)) {
            throw Arrivals.secondBarrier(ctx, input, checkpointId);
        }
        BitSet now = (BitSet) arrived.clone();
        now.set(input);
        return collect(checkpointId, now, dials, ctx);
    }

    private BarrierHandlerState subsume(BarrierHandlerContext ctx) {
        ctx.abandon(checkpointId);
        ctx.decline(checkpointId);
        return new AlternatingWaitingForFirstBarrier(checkpointId, dials);
    }

    @Override
    public BarrierHandlerState recordReceived(int input, Record record, BarrierHandlerContext ctx) {
        if (dials.persists(arrived.get(input))) {
            ctx.persistInFlight(input, record);
        }
        return this;
    }

    @Override
    public BarrierHandlerState cancelBarrierReceived(int input, long c, BarrierHandlerContext ctx) {
        if (c < checkpointId) {
            return this;
        }
        if (c > checkpointId) {
            return subsume(ctx).cancelBarrierReceived(input, c, ctx);
        }
        ctx.abandon(c);
        return new AlternatingWaitingForFirstBarrier(c, dials);
    }

    @Override
    public BarrierHandlerState checkpointAborted(long c, BarrierHandlerContext ctx) {
        if (c != checkpointId) {
            return Arrivals.rememberAbort(this, c, ctx);
        }
        ctx.abandon(c);
        return new AlternatingWaitingForFirstBarrier(c, dials);
    }

    @Override
    public BarrierHandlerState endOfPartitionReceived(int input, BarrierHandlerContext ctx) {
        return collect(checkpointId, arrived, dials, ctx);
    }

    @Override
    public boolean isBlocked(int input) {
        return false;
    }

    @Override
    public long checkpointId() {
        return checkpointId;
    }

    @Override
    public long latestCheckpointId() {
        return checkpointId;
    }

    @Override
    public String toString() {
        return "AlternatingCollectingBarriersUnaligned[checkpoint " + checkpointId + ", arrived " + arrived + "]";
    }
}
