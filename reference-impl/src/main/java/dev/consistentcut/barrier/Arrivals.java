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
     * A cancellation or abort of {@code c}, which the task is not handling: obsolete if at or
     * below {@code latest}, else remembered (its barriers will be dropped) and the cancellation
     * forwarded once; the task's state does not change.
     */
    static BarrierHandlerState abortAhead(BarrierHandlerState state, long latest, long c, BarrierHandlerContext ctx) {
        if (c > latest && !ctx.isAborted(c)) {
            ctx.markAborted(c);
            ctx.abandon(c);
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
}
