package dev.consistentcut.barrier;

import java.util.BitSet;

/** Helpers shared by the handler states: the spec's {@code AllArrived} and the error messages. */
final class Arrivals {

    private Arrivals() {
    }

    /** Every input has delivered the barrier ({@code arrived}) or ended: the spec's {@code AllArrived(t, a, x)}. */
    static boolean allArrived(BitSet arrived, BarrierHandlerContext ctx) {
        for (int i = 0; i < ctx.inputCount(); i++) {
            if (!arrived.get(i) && !ctx.inputEnded(i)) {
                return false;
            }
        }
        return true;
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

    static BitSet of(int input) {
        BitSet b = new BitSet();
        b.set(input);
        return b;
    }

    static IllegalStateException secondBarrier(BarrierHandlerContext ctx, int input, long checkpointId) {
        return new IllegalStateException("task " + ctx.taskId() + " input " + input
                + ": a second barrier of checkpoint " + checkpointId + " on the same input");
    }

    static IllegalStateException timeoutNotEnabled(BarrierHandlerContext ctx, long checkpointId, BarrierHandlerState state) {
        return new IllegalStateException("task " + ctx.taskId() + ": TimeoutAlignment(" + checkpointId
                + ") is not enabled in " + state);
    }
}
