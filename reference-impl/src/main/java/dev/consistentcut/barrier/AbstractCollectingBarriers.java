package dev.consistentcut.barrier;

import dev.consistentcut.message.Barrier;

/**
 * What every mode does while it handles one checkpoint, {@code checkpointId}, and collects the
 * inputs' barriers of it in {@link #arrived} (the model is Flink's
 * {@code org.apache.flink.streaming.runtime.io.checkpointing.AbstractAlignedBarrierHandlerState}
 * and {@code AbstractAlternatingAlignedBarrierHandlerState}, which hold these transitions for
 * their collecting states). A barrier of an older checkpoint is obsolete and dropped; one of this
 * checkpoint counts its input as arrived (twice on one input is an error upstream), and when
 * every input has arrived or ended the checkpoint completes ({@link #complete}) and the task
 * waits for the next one. An abort notification or cancellation barrier of this checkpoint
 * abandons it (every input unblocked, persisting stopped). A barrier or cancellation barrier of a
 * newer checkpoint means this checkpoint's barrier will never come on that input (the upstream
 * task went past it without forwarding it), so this one is subsumed: abandoned and declined, and
 * the newer one handled (Flink: {@code SingleCheckpointBarrierHandler}, subsumed). A notification
 * of a newer checkpoint's abort is only remembered. A subclass states what completing means in
 * its mode, what a record does meanwhile and, if it differs, what a barrier of this checkpoint does.
 *
 * <p>Immutable; used only by the thread running its task, like every handler state.
 */
abstract class AbstractCollectingBarriers implements BarrierHandlerState {

    final long checkpointId;
    /** The inputs that have delivered this checkpoint's barrier. */
    final Arrivals arrived;

    AbstractCollectingBarriers(long checkpointId, Arrivals arrived) {
        this.checkpointId = checkpointId;
        this.arrived = arrived;
    }

    /** This mode's state collecting this checkpoint's barriers with {@code now} arrived. */
    abstract BarrierHandlerState collecting(Arrivals now);

    /** Every input has arrived or ended: what the task does to complete this checkpoint. */
    abstract void complete(BarrierHandlerContext ctx);

    /** This mode's waiting state, gone past {@code latest}. */
    abstract BarrierHandlerState waiting(long latest);

    /** The barrier of this checkpoint came, and with it {@code now} have arrived. Default: {@link #collect}. */
    BarrierHandlerState arrive(Barrier barrier, Arrivals now, BarrierHandlerContext ctx) {
        return collect(now, ctx);
    }

    /** Completes this checkpoint if every input has arrived ({@code now}) or ended, else keeps collecting. */
    final BarrierHandlerState collect(Arrivals now, BarrierHandlerContext ctx) {
        if (!now.all(ctx)) {
            return collecting(now);
        }
        complete(ctx);
        return waiting(checkpointId); // unblocks every input
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
        return arrive(barrier, arrived.with(input, checkpointId, ctx), ctx);
    }

    /** Gives this checkpoint up for a newer one. */
    private BarrierHandlerState subsume(BarrierHandlerContext ctx) {
        ctx.abandon(checkpointId);
        ctx.decline(checkpointId);
        return waiting(checkpointId);
    }

    @Override
    public BarrierHandlerState cancelBarrierReceived(int input, long c, BarrierHandlerContext ctx) {
        if (c < checkpointId) {
            return this; // obsolete
        }
        if (c > checkpointId) {
            return subsume(ctx).cancelBarrierReceived(input, c, ctx);
        }
        ctx.abandon(c);
        return waiting(c); // unblocks every input at once, stops persisting
    }

    @Override
    public BarrierHandlerState checkpointAborted(long c, BarrierHandlerContext ctx) {
        if (c != checkpointId) {
            return Arrivals.rememberAbort(this, c, ctx);
        }
        ctx.abandon(c);
        return waiting(c); // unblocks every input at once, stops persisting
    }

    @Override
    public BarrierHandlerState endOfPartitionReceived(int input, BarrierHandlerContext ctx) {
        return collect(arrived, ctx);
    }

    @Override
    public boolean isBlocked(int input) {
        return false;
    }

    @Override
    public boolean arrived(int input) {
        return arrived.has(input);
    }

    @Override
    public long checkpointId() {
        return checkpointId;
    }

    @Override
    public long latestCheckpointId() {
        return checkpointId;
    }

    /** How {@link #toString} shows the inputs: their arrivals. */
    String inputs() {
        return ", arrived " + arrived;
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[checkpoint " + checkpointId + inputs() + "]";
    }
}
