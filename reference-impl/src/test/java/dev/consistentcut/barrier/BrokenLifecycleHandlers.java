package dev.consistentcut.barrier;

import dev.consistentcut.message.Barrier;
import dev.consistentcut.message.Record;
import java.util.BitSet;

/**
 * Deliberately broken lifecycles, one bug class each, named as the spec's failing
 * models. Each wraps the correct aligned states and changes one event, so that tests can show
 * the engine's checks catch it.
 */
public final class BrokenLifecycleHandlers {

    private BrokenLifecycleHandlers() {
    }

    enum Bug {
        /** An aborted alignment does not unblock the inputs that had delivered the barrier. */
        ABORT_KEEPS_INPUTS_BLOCKED,
        /** On subsumption the older checkpoint's arrived inputs are carried over to the newer one. */
        SUBSUMPTION_KEEPS_ARRIVED_INPUTS,
        /** An ended input is not counted as having delivered the barrier. */
        ENDED_INPUT_NOT_COUNTED_AS_ARRIVED,
        /** A late barrier of an older (cancelled) checkpoint counts for the checkpoint being aligned (FLINK-20654). */
        LATE_BARRIER_OF_CANCELLED_CHECKPOINT
    }

    private record Mode(String name, BarrierHandlerState initialState, boolean overtaking) implements BarrierMode {
    }

    /** {@code BugAbortKeepsInputsBlocked}. */
    public static BarrierMode abortKeepsInputsBlocked() {
        return mode(Bug.ABORT_KEEPS_INPUTS_BLOCKED);
    }

    /** {@code BugSubsumptionKeepsArrivedInputs}. */
    public static BarrierMode subsumptionKeepsArrivedInputs() {
        return mode(Bug.SUBSUMPTION_KEEPS_ARRIVED_INPUTS);
    }

    /** {@code BugLateBarrierOfCancelledCheckpoint}. */
    public static BarrierMode lateBarrierOfCancelledCheckpoint() {
        return mode(Bug.LATE_BARRIER_OF_CANCELLED_CHECKPOINT);
    }

    /** {@code BugEndedInputNotCountedAsArrived}. */
    public static BarrierMode endedInputNotCountedAsArrived() {
        return mode(Bug.ENDED_INPUT_NOT_COUNTED_AS_ARRIVED);
    }

    private static BarrierMode mode(Bug bug) {
        return new Mode("broken-" + bug.name().toLowerCase().replace('_', '-'),
                new Wrapped(AlignedWaitingForFirstBarrier.INITIAL, bug, new BitSet()), false);
    }

    /** The correct aligned state, with the one change of {@code bug}. */
    private record Wrapped(BarrierHandlerState inner, Bug bug, BitSet stuck) implements BarrierHandlerState {

        private BarrierHandlerState wrap(BarrierHandlerState next, BitSet stuckNow) {
            return new Wrapped(next, bug, stuckNow);
        }

        private BarrierHandlerContext view(BarrierHandlerContext ctx) {
            if (bug != Bug.ENDED_INPUT_NOT_COUNTED_AS_ARRIVED) {
                return ctx;
            }
            return new BarrierHandlerContext() { // THE BUG: ended inputs are never counted
                public String taskId() { return ctx.taskId(); }
                public int inputCount() { return ctx.inputCount(); }
                public boolean inputEnded(int input) { return false; }
                public void snapshot(long c) { ctx.snapshot(c); }
                public void forwardBarrier(long c) { ctx.forwardBarrier(c); }
                public void forwardBarrierOvertaking(long c) { ctx.forwardBarrierOvertaking(c); }
                public void persistInFlight(int input, Record r) { ctx.persistInFlight(input, r); }
                public void acknowledge(long c) { ctx.acknowledge(c); }
                public void abandon(long c) { ctx.abandon(c); }
                public void markAborted(long c) { ctx.markAborted(c); }
                public boolean isAborted(long c) { return ctx.isAborted(c); }
                public void decline(long c) { ctx.decline(c); }
            };
        }

        @Override
        public BarrierHandlerState barrierReceived(int input, Barrier barrier, BarrierHandlerContext ctx) {
            long h = inner.checkpointId();
            if (bug == Bug.SUBSUMPTION_KEEPS_ARRIVED_INPUTS && h != 0 && barrier.checkpointId() > h
                    && !ctx.isAborted(barrier.checkpointId())) {
                long c = barrier.checkpointId();
                Arrivals carried = Arrivals.NONE;
                for (int i = 0; i < ctx.inputCount(); i++) {
                    if (inner.isBlocked(i) || i == input) {
                        carried = carried.with(i, c, ctx); // THE BUG: the correct handler starts with {input} only
                    }
                }
                ctx.abandon(h);
                ctx.decline(h);
                return wrap(AlignedCollectingBarriers.align(c, carried, ctx), stuck);
            }
            if (bug == Bug.LATE_BARRIER_OF_CANCELLED_CHECKPOINT && h != 0 && barrier.checkpointId() < h
                    && !inner.isBlocked(input)) {
                // THE BUG: the correct handler drops a barrier older than the one it aligns
                return wrap(inner.barrierReceived(input, new Barrier(h), ctx), stuck);
            }
            return wrap(inner.barrierReceived(input, barrier, view(ctx)), stuck);
        }

        @Override
        public BarrierHandlerState recordReceived(int input, Record record, BarrierHandlerContext ctx) {
            return wrap(inner.recordReceived(input, record, ctx), stuck);
        }

        @Override
        public BarrierHandlerState cancelBarrierReceived(int input, long c, BarrierHandlerContext ctx) {
            return afterAbort(inner.cancelBarrierReceived(input, c, view(ctx)));
        }

        @Override
        public BarrierHandlerState checkpointAborted(long c, BarrierHandlerContext ctx) {
            return afterAbort(inner.checkpointAborted(c, view(ctx)));
        }

        private BarrierHandlerState afterAbort(BarrierHandlerState next) {
            BitSet stuckNow = (BitSet) stuck.clone();
            if (bug == Bug.ABORT_KEEPS_INPUTS_BLOCKED && inner.checkpointId() != 0 && next.checkpointId() == 0) {
                for (int i = 0; i < 64; i++) {
                    if (inner.isBlocked(i)) {
                        stuckNow.set(i); // THE BUG: the correct handler unblocks every input here
                    }
                }
            }
            return wrap(next, stuckNow);
        }

        @Override
        public BarrierHandlerState endOfPartitionReceived(int input, BarrierHandlerContext ctx) {
            return wrap(inner.endOfPartitionReceived(input, view(ctx)), stuck);
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
