package dev.consistentcut.stress.broken;

import dev.consistentcut.barrier.BarrierHandlerContext;
import dev.consistentcut.barrier.BarrierHandlerState;
import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.message.Barrier;
import dev.consistentcut.message.Record;
import java.util.BitSet;

/**
 * A DELIBERATELY BROKEN alternating mode, to show that the jcstress race of the
 * alignment timeout and the last barrier catches it. It wraps the engine's alternating handler
 * states ({@link BarrierHandlers#alternating(long)}) and changes one event: on an active
 * {@code TimeoutAlignment}, an input whose barrier of the checkpoint is already queued (but not
 * taken) counts as arrived, as if a barrier waiting in the channel were as good as received.
 * The correct switch prioritizes that barrier (it overtakes the records ahead of it, which are
 * persisted); the broken one leaves it queued, so the records still ahead of it are then processed
 * after the snapshot and never persisted: skipped from the cut ({@code BugSwitchForgetsPendingInputs}, only when the barrier
 * has won the race to the channel but not to the task). The barrier itself, when it is taken, is
 * dropped. Never use it otherwise.
 */
public final class BrokenAlternatingModes {

    private BrokenAlternatingModes() {
    }

    private record Mode(String name, BarrierHandlerState initialState, long alignedTimeoutMillis) implements BarrierMode {
        @Override
        public boolean overtaking() {
            return false;
        }

        @Override
        public boolean oneInFlight() {
            return true;
        }
    }

    /** The broken switch described in the class comment, with the given alignment timeout. */
    public static BarrierMode switchCountsQueuedBarrierAsArrived(long alignedTimeoutMillis) {
        BarrierMode correct = BarrierHandlers.alternating(alignedTimeoutMillis);
        return new Mode("broken-alternating-queued-counts-as-arrived",
                new Wrapped(correct.initialState(), 0, new BitSet()), alignedTimeoutMillis);
    }

    /** The task's context, except that the barriers queued on the inputs in {@code kept} are not prioritized. */
    private record LeavingQueued(BarrierHandlerContext ctx, BitSet kept) implements BarrierHandlerContext {
        @Override public String taskId() { return ctx.taskId(); }
        @Override public int inputCount() { return ctx.inputCount(); }
        @Override public boolean inputEnded(int input) { return ctx.inputEnded(input); }
        @Override public void snapshot(long c) { ctx.snapshot(c); }
        @Override public void forwardBarrier(long c) { ctx.forwardBarrier(c); }
        @Override public void forwardBarrierOvertaking(long c) { ctx.forwardBarrierOvertaking(c); }
        @Override public void forward(Barrier b) { ctx.forward(b); }
        @Override public void persistInFlight(int input, Record r) { ctx.persistInFlight(input, r); }
        @Override public Barrier queuedBarrier(int input) { return ctx.queuedBarrier(input); }
        @Override public void switched(long c, boolean timeout) { ctx.switched(c, timeout); }
        @Override public void discard(long c) { ctx.discard(c); }
        @Override public void acknowledge(long c) { ctx.acknowledge(c); }
        @Override public void abandon(long c) { ctx.abandon(c); }
        @Override public void markAborted(long c) { ctx.markAborted(c); }
        @Override public boolean isAborted(long c) { return ctx.isAborted(c); }
        @Override public void decline(long c) { ctx.decline(c); }

        @Override
        public boolean prioritizeBarrier(int input, long c, boolean persist) {
            return !kept.get(input) && ctx.prioritizeBarrier(input, c, persist);
        }
    }

    /** The engine's state {@code inner}; {@code faked}: inputs whose barrier of {@code checkpoint} counted as arrived early. */
    private record Wrapped(BarrierHandlerState inner, long checkpoint, BitSet faked) implements BarrierHandlerState {

        private BarrierHandlerState wrap(BarrierHandlerState next) {
            return next == inner ? this : new Wrapped(next, checkpoint, faked);
        }

        @Override
        public BarrierHandlerState barrierReceived(int input, Barrier barrier, BarrierHandlerContext ctx) {
            if (barrier.checkpointId() == checkpoint && faked.get(input)) {
                BitSet rest = (BitSet) faked.clone();
                rest.clear(input);
                return new Wrapped(inner, checkpoint, rest); // "already arrived": dropped
            }
            return wrap(inner.barrierReceived(input, barrier, ctx));
        }

        @Override
        public BarrierHandlerState timeoutAlignment(long c, BarrierHandlerContext ctx) {
            boolean active = inner.checkpointId() == c;
            BitSet early = new BitSet();
            if (active) {
                for (int i = 0; i < ctx.inputCount(); i++) {
                    Barrier b = ctx.queuedBarrier(i);
                    if (!inner.isBlocked(i) && b != null && b.checkpointId() == c) {
                        early.set(i);
                    }
                }
            }
            // The correct switch prioritizes the queued barrier (what it overtakes is persisted);
            // the broken one leaves it where it is, since it counts it as arrived already.
            BarrierHandlerState next = inner.timeoutAlignment(c, new LeavingQueued(ctx, early));
            for (int i = early.nextSetBit(0); i >= 0; i = early.nextSetBit(i + 1)) {
                next = next.barrierReceived(i, new Barrier(c), ctx); // THE BUG: queued is not arrived
            }
            return new Wrapped(next, c, early);
        }

        @Override
        public boolean canTimeoutAlignment(long c, BarrierHandlerContext ctx) {
            return inner.canTimeoutAlignment(c, ctx);
        }

        @Override
        public long prioritizable(int input, BarrierHandlerContext ctx) {
            return faked.get(input) ? 0 : inner.prioritizable(input, ctx);
        }

        @Override
        public BarrierHandlerState prioritizeBarrier(int input, BarrierHandlerContext ctx) {
            return wrap(inner.prioritizeBarrier(input, ctx));
        }

        @Override
        public BarrierHandlerState recordReceived(int input, Record record, BarrierHandlerContext ctx) {
            return wrap(inner.recordReceived(input, record, ctx));
        }

        @Override
        public BarrierHandlerState cancelBarrierReceived(int input, long c, BarrierHandlerContext ctx) {
            return wrap(inner.cancelBarrierReceived(input, c, ctx));
        }

        @Override
        public BarrierHandlerState checkpointAborted(long c, BarrierHandlerContext ctx) {
            return wrap(inner.checkpointAborted(c, ctx));
        }

        @Override
        public BarrierHandlerState endOfPartitionReceived(int input, BarrierHandlerContext ctx) {
            return wrap(inner.endOfPartitionReceived(input, ctx));
        }

        @Override
        public boolean isBlocked(int input) {
            return inner.isBlocked(input);
        }

        @Override
        public long checkpointId() {
            return inner.checkpointId();
        }

        @Override
        public long latestCheckpointId() {
            return inner.latestCheckpointId();
        }

        @Override
        public String toString() {
            return "Broken" + inner;
        }
    }
}
