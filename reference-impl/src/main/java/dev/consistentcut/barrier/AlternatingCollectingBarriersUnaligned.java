package dev.consistentcut.barrier;

import dev.consistentcut.message.Barrier;
import dev.consistentcut.message.Record;

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
 * {@code handling[t] = c}, {@code unalignedAt[t] = c}. Otherwise as {@link AbstractCollectingBarriers}.
 */
final class AlternatingCollectingBarriersUnaligned extends AbstractCollectingBarriers
        implements AlternatingPrioritizing {

    private final AlternatingDials dials;

    private AlternatingCollectingBarriersUnaligned(long checkpointId, Arrivals arrived, AlternatingDials dials) {
        super(checkpointId, arrived);
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
    static BarrierHandlerState switchToUnaligned(long c, Arrivals arrived, boolean timeout, AlternatingDials dials,
                                                 BarrierHandlerContext ctx) {
        ctx.snapshot(c);
        ctx.forward(new Barrier(c, false, false));
        // The spec's PrioritizedIn in Switch; Flink's ChannelState.prioritizeAllAnnouncements in
        // AlternatingCollectingBarriers.alignmentTimeout: the pending inputs' queued barriers
        // overtake their backlog now, instead of the task waiting for them behind it (seconds
        // under heavy backpressure).
        arrived.prioritizePending(c, dials.persists(false), ctx);
        ctx.switched(c, timeout);
        return new AlternatingCollectingBarriersUnaligned(c, arrived, dials).collect(arrived, ctx);
    }

    @Override
    public AlternatingDials dials() {
        return dials;
    }

    @Override
    BarrierHandlerState collecting(Arrivals now) {
        return new AlternatingCollectingBarriersUnaligned(checkpointId, now, dials);
    }

    @Override
    void complete(BarrierHandlerContext ctx) {
        ctx.acknowledge(checkpointId);
    }

    @Override
    BarrierHandlerState waiting(long latest) {
        return new AlternatingWaitingForFirstBarrier(latest, dials);
    }

    @Override
    public long unalignedCheckpointId() {
        return checkpointId;
    }

    @Override
    public long prioritizable(int input, BarrierHandlerContext ctx) {
        return arrived.pending(input, ctx) ? checkpointId : 0;
    }

    @Override
    public BarrierHandlerState recordReceived(int input, Record record, BarrierHandlerContext ctx) {
        if (dials.persists(arrived.has(input))) {
            ctx.persistInFlight(input, record);
        }
        return this;
    }
}
