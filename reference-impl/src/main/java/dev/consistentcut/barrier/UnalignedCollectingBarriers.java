package dev.consistentcut.barrier;

import dev.consistentcut.channel.Barrier;
import dev.consistentcut.record.Record;
import java.util.BitSet;

/**
 * Unaligned mode, after the snapshot for {@code checkpointId}: nothing is blocked; a record taken
 * from an input whose barrier has not arrived yet was in flight at the cut, so it is persisted as
 * that input's channel state (and processed as usual). The last barrier acknowledges.
 */
final class UnalignedCollectingBarriers implements BarrierHandlerState {

    private final long checkpointId;
    private final int inputCount;
    private final BitSet arrived = new BitSet();

    UnalignedCollectingBarriers(long checkpointId, int inputCount) {
        this.checkpointId = checkpointId;
        this.inputCount = inputCount;
    }

    @Override
    public BarrierHandlerState barrierReceived(int input, Barrier barrier, BarrierHandlerContext ctx) {
        if (barrier.checkpointId() != checkpointId) {
            throw BarrierHandlers.wrongBarrier(ctx, input, checkpointId, barrier.checkpointId());
        }
        if (arrived.get(input)) {
            throw BarrierHandlers.secondBarrier(ctx, input, checkpointId);
        }
        arrived.set(input);
        if (arrived.cardinality() < inputCount) {
            return this;
        }
        ctx.acknowledge(checkpointId);
        return UnalignedWaitingForFirstBarrier.INSTANCE;
    }

    @Override
    public BarrierHandlerState recordReceived(int input, Record record, BarrierHandlerContext ctx) {
        if (!arrived.get(input)) {
            ctx.persistInFlight(input, record);
        }
        return this;
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
    public String toString() {
        return "UnalignedCollectingBarriers[checkpoint " + checkpointId + ", arrived " + arrived + " of " + inputCount + "]";
    }
}
