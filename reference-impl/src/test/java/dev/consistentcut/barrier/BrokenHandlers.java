package dev.consistentcut.barrier;

import dev.consistentcut.message.Barrier;
import dev.consistentcut.message.Record;
import java.util.BitSet;

/**
 * Deliberately broken barrier handlers, kept so that tests can show the invariant checks catch
 * them. Each differs from the correct handler in one place.
 */
public final class BrokenHandlers {

    private BrokenHandlers() {
    }

    private record Mode(String name, BarrierHandlerState initialState, boolean overtaking) implements BarrierMode {
    }

    /**
     * Aligned, but a barrier does not block its input: records behind the barrier are processed
     * before the snapshot, so the snapshot counts records after the cut ("counted twice").
     */
    public static BarrierMode alignedWithoutBlocking() {
        return new Mode("broken-aligned-nonblocking", BrokenAlignedIdle.INSTANCE, false);
    }

    /**
     * Unaligned, but records taken after the snapshot from inputs whose barrier is still to come
     * are not persisted: they are lost from the cut ("skipped").
     */
    public static BarrierMode unalignedForgettingInFlight() {
        return new Mode("broken-unaligned-forgetful", BrokenUnalignedIdle.INSTANCE, true);
    }

    // The broken twins of alternating mode, one per bug class of spec/alternating/MCAlternatingCheckpoint.tla:
    // the shipped states with one dial set wrong (AlternatingDials).

    /** {@code BugSwitchPersistsArrivedInputs}: handling unaligned, records behind an arrived barrier are persisted too. */
    public static BarrierMode alternatingPersistingArrivedInputs(long timeout) {
        return BarrierHandlers.alternating("broken-alternating-persists-arrived", timeout,
                new AlternatingDials(true, true, false, true));
    }

    /** {@code BugSwitchForgetsPendingInputs}: handling unaligned, the records still ahead of a pending barrier are not persisted. */
    public static BarrierMode alternatingForgettingPendingInputs(long timeout) {
        return BarrierHandlers.alternating("broken-alternating-forgets-pending", timeout,
                new AlternatingDials(false, false, false, true));
    }

    /** {@code BugSwitchNotPropagated}: an unaligned barrier is aligned like any other by its receiver. */
    public static BarrierMode alternatingNotPropagated(long timeout) {
        return BarrierHandlers.alternating("broken-alternating-not-propagated", timeout,
                new AlternatingDials(false, true, false, false));
    }

    /** {@code BugForcedAlignedSwitches} (FLINK-33693): a savepoint's alignment times out too. */
    public static BarrierMode alternatingSavepointsSwitch(long timeout) {
        return BarrierHandlers.alternating("broken-alternating-savepoints-switch", timeout,
                new AlternatingDials(false, true, true, true));
    }

    /**
     * The lifecycle events, the same in every broken handler here (their bugs are elsewhere): an
     * abort or cancellation abandons the checkpoint and returns to {@link #idle()}; an ended input
     * changes nothing (these handlers are not used with end of input).
     */
    private abstract static class LifecycleAsUsual implements BarrierHandlerState {
        abstract BarrierHandlerState idle();

        @Override
        public BarrierHandlerState cancelBarrierReceived(int input, long c, BarrierHandlerContext ctx) {
            return checkpointAborted(c, ctx);
        }

        @Override
        public BarrierHandlerState checkpointAborted(long c, BarrierHandlerContext ctx) {
            if (c < checkpointId()) {
                return this;
            }
            ctx.abandon(c);
            return idle();
        }

        @Override
        public BarrierHandlerState endOfPartitionReceived(int input, BarrierHandlerContext ctx) {
            return this;
        }

        @Override
        public long latestCheckpointId() {
            return checkpointId();
        }
    }

    private static final class BrokenAlignedIdle extends LifecycleAsUsual {
        static final BrokenAlignedIdle INSTANCE = new BrokenAlignedIdle();

        @Override
        BarrierHandlerState idle() {
            return this;
        }

        @Override
        public BarrierHandlerState barrierReceived(int input, Barrier barrier, BarrierHandlerContext ctx) {
            return new BrokenAlignedCollecting(barrier.checkpointId()).barrierReceived(input, barrier, ctx);
        }

        @Override
        public BarrierHandlerState recordReceived(int input, Record record, BarrierHandlerContext ctx) {
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
    }

    private static final class BrokenAlignedCollecting extends LifecycleAsUsual {
        private final long checkpointId;
        private final BitSet arrived = new BitSet();

        BrokenAlignedCollecting(long checkpointId) {
            this.checkpointId = checkpointId;
        }

        @Override
        BarrierHandlerState idle() {
            return BrokenAlignedIdle.INSTANCE;
        }

        @Override
        public BarrierHandlerState barrierReceived(int input, Barrier barrier, BarrierHandlerContext ctx) {
            arrived.set(input);
            if (arrived.cardinality() < ctx.inputCount()) {
                return this;
            }
            ctx.snapshot(checkpointId);
            ctx.forwardBarrier(checkpointId);
            ctx.acknowledge(checkpointId);
            return BrokenAlignedIdle.INSTANCE;
        }

        @Override
        public BarrierHandlerState recordReceived(int input, Record record, BarrierHandlerContext ctx) {
            return this;
        }

        @Override
        public boolean isBlocked(int input) {
            return false; // THE BUG: the correct handler returns arrived.get(input)
        }

        @Override
        public long checkpointId() {
            return checkpointId;
        }
    }

    private static final class BrokenUnalignedIdle extends LifecycleAsUsual {
        static final BrokenUnalignedIdle INSTANCE = new BrokenUnalignedIdle();

        @Override
        BarrierHandlerState idle() {
            return this;
        }

        @Override
        public BarrierHandlerState barrierReceived(int input, Barrier barrier, BarrierHandlerContext ctx) {
            ctx.snapshot(barrier.checkpointId());
            ctx.forwardBarrierOvertaking(barrier.checkpointId());
            return new BrokenUnalignedCollecting(barrier.checkpointId()).barrierReceived(input, barrier, ctx);
        }

        @Override
        public BarrierHandlerState recordReceived(int input, Record record, BarrierHandlerContext ctx) {
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
    }

    private static final class BrokenUnalignedCollecting extends LifecycleAsUsual {
        private final long checkpointId;
        private final BitSet arrived = new BitSet();

        BrokenUnalignedCollecting(long checkpointId) {
            this.checkpointId = checkpointId;
        }

        @Override
        BarrierHandlerState idle() {
            return BrokenUnalignedIdle.INSTANCE;
        }

        @Override
        public BarrierHandlerState barrierReceived(int input, Barrier barrier, BarrierHandlerContext ctx) {
            arrived.set(input);
            if (arrived.cardinality() < ctx.inputCount()) {
                return this;
            }
            ctx.acknowledge(checkpointId);
            return BrokenUnalignedIdle.INSTANCE;
        }

        @Override
        public BarrierHandlerState recordReceived(int input, Record record, BarrierHandlerContext ctx) {
            return this; // THE BUG: the correct handler persists the record if !arrived.get(input)
        }

        @Override
        public boolean isBlocked(int input) {
            return false;
        }

        @Override
        public long checkpointId() {
            return checkpointId;
        }
    }
}
