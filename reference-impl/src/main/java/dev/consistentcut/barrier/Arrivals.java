package dev.consistentcut.barrier;

import java.util.BitSet;

/**
 * The inputs that have delivered the barrier of one checkpoint (the spec's {@code arrived[t]}):
 * in the aligned states exactly the blocked inputs, in the unaligned ones the inputs whose records
 * are no longer persisted. One value for every handler state, so that what counts as arrived, as
 * pending and as all arrived is said once (the model is Flink's
 * {@code org.apache.flink.streaming.runtime.io.checkpointing.ChannelState}, which tracks the
 * blocked channels for its aligned and alternating states). Also the helpers the states share:
 * remembering an abort notification and the error messages.
 *
 * <p>Immutable: {@link #with} returns a new value, so a state may hand its arrivals to the next one.
 */
final class Arrivals {

    /** No input has delivered the barrier. */
    static final Arrivals NONE = new Arrivals(new BitSet());

    private final BitSet arrived;

    private Arrivals(BitSet arrived) {
        this.arrived = arrived;
    }

    /** Only {@code input} has delivered the barrier (the first barrier of a checkpoint). */
    static Arrivals of(int input) {
        BitSet b = new BitSet();
        b.set(input);
        return new Arrivals(b);
    }

    /** Whether {@code input} has delivered the barrier. */
    boolean has(int input) {
        return arrived.get(input);
    }

    /**
     * These arrivals and {@code input}'s barrier of {@code checkpointId}.
     *
     * @throws IllegalStateException naming task, input and checkpoint if {@code input} has delivered it already
     */
    Arrivals with(int input, long checkpointId, BarrierHandlerContext ctx) {
        if (has(input)) {
            throw secondBarrier(ctx, input, checkpointId);
        }
        BitSet now = (BitSet) arrived.clone();
        now.set(input);
        return new Arrivals(now);
    }

    /** Whether {@code input} still owes the barrier: it has neither delivered it nor ended. */
    boolean pending(int input, BarrierHandlerContext ctx) {
        return !has(input) && !ctx.inputEnded(input);
    }

    /** Every input has delivered the barrier or ended: the spec's {@code AllArrived(t, a, x)}. */
    boolean all(BarrierHandlerContext ctx) {
        for (int i = 0; i < ctx.inputCount(); i++) {
            if (pending(i, ctx)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Alternating mode: the barrier of {@code checkpointId} queued on each pending input jumps to
     * the head of its channel, and the records it overtakes are persisted if {@code persist} (the
     * spec's {@code PrioritizedIn}; Flink's {@code ChannelState.prioritizeAllAnnouncements}).
     */
    void prioritizePending(long checkpointId, boolean persist, BarrierHandlerContext ctx) {
        for (int i = 0; i < ctx.inputCount(); i++) {
            if (pending(i, ctx)) {
                ctx.prioritizeBarrier(i, checkpointId, persist);
            }
        }
    }

    /** The arrived inputs as a set of input numbers, e.g. {@code {0, 2}}. */
    @Override
    public String toString() {
        return arrived.toString();
    }

    /**
     * The coordinator says {@code c} is aborted, and the task is not handling it: if the task has
     * not gone past it, it remembers it (its barriers will be abandoned on arrival) and carries on
     * with what it handles. A notification travels apart from the barriers, so it says nothing
     * about older checkpoints, which may still complete.
     */
    static BarrierHandlerState rememberAbort(BarrierHandlerState state, long c, BarrierHandlerContext ctx) {
        if (c > state.latestCheckpointId()) {
            ctx.markAborted(c);
        }
        return state;
    }

    private static IllegalStateException secondBarrier(BarrierHandlerContext ctx, int input, long checkpointId) {
        return new IllegalStateException("task " + ctx.taskId() + " input " + input
                + ": a second barrier of checkpoint " + checkpointId + " on the same input");
    }

    static IllegalStateException prioritizeNotEnabled(BarrierHandlerContext ctx, int input, BarrierHandlerState state) {
        return new IllegalStateException("task " + ctx.taskId() + ": PrioritizeBarrier(" + input
                + ") is not enabled in " + state);
    }

    static IllegalStateException timeoutNotEnabled(BarrierHandlerContext ctx, long checkpointId, BarrierHandlerState state) {
        return new IllegalStateException("task " + ctx.taskId() + ": TimeoutAlignment(" + checkpointId
                + ") is not enabled in " + state);
    }
}
