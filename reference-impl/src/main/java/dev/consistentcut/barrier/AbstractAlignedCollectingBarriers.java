package dev.consistentcut.barrier;

import dev.consistentcut.message.Record;

/**
 * A checkpoint being aligned ({@link AbstractCollectingBarriers}): every input whose barrier has
 * arrived is blocked, so nothing after the barrier gets processed before the snapshot (the model
 * is Flink's {@code org.apache.flink.streaming.runtime.io.checkpointing.AbstractAlignedBarrierHandlerState},
 * whose {@code ChannelState} blocks a channel on its barrier and unblocks all on completion or
 * abort). A subclass states how its mode completes the alignment.
 *
 * <p>Immutable; used only by the thread running its task, like every handler state.
 */
abstract class AbstractAlignedCollectingBarriers extends AbstractCollectingBarriers {

    AbstractAlignedCollectingBarriers(long checkpointId, Arrivals blocked) {
        super(checkpointId, blocked);
    }

    @Override
    public BarrierHandlerState recordReceived(int input, Record record, BarrierHandlerContext ctx) {
        if (arrived.has(input)) {
            throw new IllegalStateException("task " + ctx.taskId() + " input " + input + ": took record "
                    + record.id() + " from an input blocked for checkpoint " + checkpointId);
        }
        return this;
    }

    @Override
    public boolean isBlocked(int input) {
        return arrived.has(input);
    }

    @Override
    String inputs() {
        return ", blocked " + arrived;
    }
}
