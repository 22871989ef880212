package dev.consistentcut.barrier;

import dev.consistentcut.message.Barrier;
import dev.consistentcut.message.Record;
import java.util.BitSet;

/**
 * Unaligned mode, after the snapshot for {@code checkpointId}: nothing is blocked; a record taken
 * from an input whose barrier has not arrived yet was in flight at the cut, so it is persisted as
 * that input's channel state (and processed as usual). When every input has arrived or ended the
 * task acknowledges.
 *
 * <p>Lifecycle as in aligned mode: an abort or cancellation of this checkpoint abandons it
 * (persisting stops); a barrier or cancellation barrier of a newer one subsumes it (abandoned and
 * declined); a notification of a newer one's abort is remembered.
 */
final class UnalignedCollectingBarriers implements BarrierHandlerState {

    private final long checkpointId;
    private final BitSet arrived;

    private UnalignedCollectingBarriers(long checkpointId, BitSet arrived) {
        this.checkpointId = checkpointId;
        this.arrived = arrived;
    }

    /** First barrier of {@code c}, on {@code input}: snapshot, forward overtaking, then collect the rest. */
    static BarrierHandlerState start(long c, int input, BarrierHandlerContext ctx) {
        ctx.snapshot(c);
        ctx.forwardBarrierOvertaking(c);
        return collect(c, Arrivals.of(input), ctx);
    }

    private static BarrierHandlerState collect(long c, BitSet arrived, BarrierHandlerContext ctx) {
        if (!Arrivals.allArrived(arrived, ctx)) {
            return new UnalignedCollectingBarriers(c, arrived);
        }
        ctx.acknowledge(c);
        return new UnalignedWaitingForFirstBarrier(c);
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
        return collect(checkpointId, now, ctx);
    }

    private BarrierHandlerState subsume(BarrierHandlerContext ctx) {
        ctx.abandon(checkpointId);
        ctx.decline(checkpointId);
        return new UnalignedWaitingForFirstBarrier(checkpointId);
    }

    @Override
    public BarrierHandlerState recordReceived(int input, Record record, BarrierHandlerContext ctx) {
        if (!arrived.get(input)) {
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
        return new UnalignedWaitingForFirstBarrier(c); // stops persisting
    }

    @Override
    public BarrierHandlerState checkpointAborted(long c, BarrierHandlerContext ctx) {
        if (c != checkpointId) {
            return Arrivals.rememberAbort(this, c, ctx);
        }
        ctx.abandon(c);
        return new UnalignedWaitingForFirstBarrier(c); // stops persisting
    }

    @Override
    public BarrierHandlerState endOfPartitionReceived(int input, BarrierHandlerContext ctx) {
        return collect(checkpointId, arrived, ctx);
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
        return "UnalignedCollectingBarriers[checkpoint " + checkpointId + ", arrived " + arrived + "]";
    }
}
