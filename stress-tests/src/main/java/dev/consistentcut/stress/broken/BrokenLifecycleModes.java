package dev.consistentcut.stress.broken;

import dev.consistentcut.barrier.BarrierHandlerContext;
import dev.consistentcut.barrier.BarrierHandlerState;
import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.message.Barrier;
import dev.consistentcut.message.Record;
import java.util.BitSet;

/**
 * DELIBERATELY BROKEN lifecycles of the aligned mode, one bug class each, named as the
 * spec's failing models, to show that the lifecycle jcstress races catch them. Each wraps the
 * engine's aligned handler states ({@link BarrierHandlers#aligned()}) and changes one event.
 * Never use them otherwise.
 */
public final class BrokenLifecycleModes {

    private BrokenLifecycleModes() {
    }

    private enum Bug {
        /** {@code BugAbortKeepsInputsBlocked}: an aborted alignment does not unblock the inputs that had delivered the barrier. */
        ABORT_KEEPS_INPUTS_BLOCKED,
        /** {@code BugSubsumptionKeepsArrivedInputs}: on subsumption the older checkpoint's arrived inputs count for the newer one. */
        SUBSUMPTION_KEEPS_ARRIVED_INPUTS
    }

    private record Mode(String name, BarrierHandlerState initialState, boolean overtaking) implements BarrierMode {
    }

    /**
     * The spec's {@code BugAbortKeepsInputsBlocked}: abandoning an alignment (abort notification or
     * cancellation barrier) keeps the inputs whose barrier had arrived blocked, until a restore.
     */
    public static BarrierMode alignedAbortKeepsInputsBlocked() {
        return mode(Bug.ABORT_KEEPS_INPUTS_BLOCKED);
    }

    /**
     * The spec's {@code BugSubsumptionKeepsArrivedInputs}: a newer barrier subsumes the alignment,
     * and the inputs that had delivered the older barrier count as having delivered the newer one,
     * so the newer snapshot can be taken before their records up to the newer barrier (a skip).
     */
    public static BarrierMode alignedSubsumptionKeepsArrivedInputs() {
        return mode(Bug.SUBSUMPTION_KEEPS_ARRIVED_INPUTS);
    }

    private static BarrierMode mode(Bug bug) {
        return new Mode("broken-" + bug.name().toLowerCase().replace('_', '-'),
                new Wrapped(BarrierHandlers.aligned().initialState(), bug, new BitSet()), false);
    }

    /** The engine's aligned state {@code inner}, with the one change of {@code bug}; confined to its task's thread. */
    private record Wrapped(BarrierHandlerState inner, Bug bug, BitSet stuck) implements BarrierHandlerState {

        private BarrierHandlerState wrap(BarrierHandlerState next) {
            return new Wrapped(next, bug, stuck);
        }

        @Override
        public BarrierHandlerState barrierReceived(int input, Barrier barrier, BarrierHandlerContext ctx) {
            long h = inner.checkpointId();
            long c = barrier.checkpointId();
            if (bug == Bug.SUBSUMPTION_KEEPS_ARRIVED_INPUTS && h != 0 && c > h && !ctx.isAborted(c)) {
                BitSet carried = new BitSet();
                for (int i = 0; i < ctx.inputCount(); i++) {
                    if (inner.isBlocked(i) && i != input) {
                        carried.set(i);
                    }
                }
                BarrierHandlerState next = inner.barrierReceived(input, barrier, ctx); // subsumes h, starts c
                for (int i = carried.nextSetBit(0); i >= 0 && next.checkpointId() == c; i = carried.nextSetBit(i + 1)) {
                    next = next.barrierReceived(i, barrier, ctx); // THE BUG: the engine starts c with {input} only
                }
                return wrap(next);
            }
            return wrap(inner.barrierReceived(input, barrier, ctx));
        }

        @Override
        public BarrierHandlerState recordReceived(int input, Record record, BarrierHandlerContext ctx) {
            return wrap(inner.recordReceived(input, record, ctx));
        }

        @Override
        public BarrierHandlerState cancelBarrierReceived(int input, long c, BarrierHandlerContext ctx) {
            return afterAbort(inner.cancelBarrierReceived(input, c, ctx));
        }

        @Override
        public BarrierHandlerState checkpointAborted(long c, BarrierHandlerContext ctx) {
            return afterAbort(inner.checkpointAborted(c, ctx));
        }

        private BarrierHandlerState afterAbort(BarrierHandlerState next) {
            BitSet stuckNow = (BitSet) stuck.clone();
            if (bug == Bug.ABORT_KEEPS_INPUTS_BLOCKED && inner.checkpointId() != 0 && next.checkpointId() == 0) {
                for (int i = 0; i < 64; i++) {
                    if (inner.isBlocked(i)) {
                        stuckNow.set(i); // THE BUG: the engine unblocks every input here
                    }
                }
            }
            return new Wrapped(next, bug, stuckNow);
        }

        @Override
        public BarrierHandlerState endOfPartitionReceived(int input, BarrierHandlerContext ctx) {
            return wrap(inner.endOfPartitionReceived(input, ctx));
        }

        @Override
        public boolean isBlocked(int input) {
            return inner.isBlocked(input) || stuck.get(input);
        }

        @Override
        public long checkpointId() {
            return inner.checkpointId();
        }

        @Override
        public long latestCheckpointId() {
            return inner.latestCheckpointId();
        }
    }
}
