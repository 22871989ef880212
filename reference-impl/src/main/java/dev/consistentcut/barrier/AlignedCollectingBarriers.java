package dev.consistentcut.barrier;

import dev.consistentcut.channel.Barrier;
import dev.consistentcut.record.Record;
import java.util.BitSet;

/**
 * Aligned mode, aligning checkpoint {@code checkpointId}: every input whose barrier has arrived is
 * blocked, so nothing after the barrier gets processed before the snapshot. The last barrier
 * completes the alignment: snapshot, forward in-band, unblock all, acknowledge.
 */
final class AlignedCollectingBarriers implements BarrierHandlerState {

    private final long checkpointId;
    private final int inputCount;
    private final BitSet blocked = new BitSet();

    AlignedCollectingBarriers(long checkpointId, int inputCount) {
        this.checkpointId = checkpointId;
        this.inputCount = inputCount;
    }

    @Override
    public BarrierHandlerState barrierReceived(int input, Barrier barrier, BarrierHandlerContext ctx) {
        if (barrier.checkpointId() != checkpointId) {
            throw BarrierHandlers.wrongBarrier(ctx, input, checkpointId, barrier.checkpointId());
        }
        if (blocked.get(input)) {
            throw BarrierHandlers.secondBarrier(ctx, input, checkpointId);
        }
        blocked.set(input);
        if (blocked.cardinality() < inputCount) {
            return this;
        }
        ctx.snapshot(checkpointId);
        ctx.forwardBarrier(checkpointId);
        ctx.acknowledge(checkpointId);
        return AlignedWaitingForFirstBarrier.INSTANCE; // unblocks every input
    }

    @Override
    public BarrierHandlerState recordReceived(int input, Record record, BarrierHandlerContext ctx) {
        if (blocked.get(input)) {
            throw new IllegalStateException("task " + ctx.taskId() + " input " + input + ": took record "
                    + record.id() + " from an input blocked for checkpoint " + checkpointId);
        }
        return this;
    }

    @Override
    public boolean isBlocked(int input) {
        return blocked.get(input);
    }

    @Override
    public long checkpointId() {
        return checkpointId;
    }

    @Override
    public String toString() {
        return "AlignedCollectingBarriers[checkpoint " + checkpointId + ", blocked " + blocked + " of " + inputCount + "]";
    }
}
