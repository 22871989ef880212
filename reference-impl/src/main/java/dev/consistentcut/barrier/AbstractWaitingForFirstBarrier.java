package dev.consistentcut.barrier;

import dev.consistentcut.message.Barrier;
import dev.consistentcut.message.Record;

/**
 * What every mode does while no checkpoint is in progress (the model is Flink's
 * {@code org.apache.flink.streaming.runtime.io.checkpointing.WaitingForFirstBarrier} and
 * {@code AlternatingWaitingForFirstBarrier}, which share these transitions): records pass and
 * nothing is blocked; a barrier at or below {@link #latestCheckpointId()} is obsolete and
 * dropped; the first barrier of a newer checkpoint that is known to be aborted abandons it at
 * once, any other starts it as the mode says ({@link #start}); a cancellation barrier of a newer
 * checkpoint is forwarded and the task goes past it; an abort notification of one is remembered.
 * A subclass states how its mode starts a checkpoint and which state it waits in next.
 *
 * <p>Immutable; used only by the thread running its task, like every handler state.
 */
abstract class AbstractWaitingForFirstBarrier implements BarrierHandlerState {

    /** The newest checkpoint finished, abandoned or known aborted here. */
    final long latest;

    AbstractWaitingForFirstBarrier(long latest) {
        this.latest = latest;
    }

    /** {@code barrier}, of a checkpoint newer than anything handled here and not known to be aborted, came on {@code input}. */
    abstract BarrierHandlerState start(int input, Barrier barrier, BarrierHandlerContext ctx);

    /** This mode's waiting state, gone past {@code latest}. */
    abstract BarrierHandlerState waiting(long latest);

    /** Whether a barrier or cancellation barrier of {@code c} is obsolete here. */
    boolean obsolete(long c) {
        return c <= latest;
    }

    @Override
    public BarrierHandlerState barrierReceived(int input, Barrier barrier, BarrierHandlerContext ctx) {
        long c = barrier.checkpointId();
        if (obsolete(c)) {
            return this; // finished or abandoned here
        }
        if (ctx.isAborted(c)) {
            return cancelBarrierReceived(input, c, ctx);
        }
        return start(input, barrier, ctx);
    }

    @Override
    public BarrierHandlerState recordReceived(int input, Record record, BarrierHandlerContext ctx) {
        return this;
    }

    @Override
    public BarrierHandlerState cancelBarrierReceived(int input, long checkpointId, BarrierHandlerContext ctx) {
        if (obsolete(checkpointId)) {
            return this;
        }
        ctx.abandon(checkpointId);
        return waiting(checkpointId);
    }

    @Override
    public BarrierHandlerState checkpointAborted(long checkpointId, BarrierHandlerContext ctx) {
        return Arrivals.rememberAbort(this, checkpointId, ctx);
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
        return getClass().getSimpleName() + "[latest " + latest + "]";
    }
}
