package dev.consistentcut.stress.broken;

import dev.consistentcut.barrier.BarrierHandlerContext;
import dev.consistentcut.barrier.BarrierHandlerState;
import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.message.Barrier;
import dev.consistentcut.message.Record;
import java.util.BitSet;

/**
 * DELIBERATELY BROKEN checkpointing modes, each breaking exactly one rule of
 * {@link dev.consistentcut.barrier.BarrierHandlers} (everything else as there), to show that the
 * stress and property tests catch that bug. Never use them otherwise.
 */
public final class BrokenBarrierModes {

    private BrokenBarrierModes() {
    }

    /** The one rule a broken mode breaks. */
    private enum Defect {
        /** Aligned: an input whose barrier arrived is not blocked. */
        NO_BLOCKING,
        /** Aligned: records taken while aligning are persisted as channel state too. */
        ALIGNED_PERSISTS,
        /** Unaligned: records taken before their input's barrier are not persisted. */
        NO_PERSISTING,
        /** Unaligned: the inputs whose barrier has arrived are persisted instead of the others. */
        PERSISTS_ARRIVED_INPUTS
    }

    private record Mode(String name, BarrierHandlerState initialState, boolean overtaking) implements BarrierMode {
        Mode(Defect defect, boolean overtaking) {
            this("broken-" + defect.name().toLowerCase().replace('_', '-'), new State(0, overtaking, defect), overtaking);
        }
    }

    /**
     * Aligned barriers that never block an input: records behind a barrier are processed before
     * the snapshot, so the snapshot counts records after the cut (caught as {@code NoDoubleCountInv}).
     */
    public static BarrierMode alignedWithoutBlocking() {
        return new Mode(Defect.NO_BLOCKING, false);
    }

    /**
     * Aligned barriers that also persist the records they take from inputs still waiting for their
     * barrier: an aligned checkpoint with channel state (caught as {@code AlignedNoChannelStateInv};
     * those records are also in the snapshot, so counted twice).
     */
    public static BarrierMode alignedPersistingInFlight() {
        return new Mode(Defect.ALIGNED_PERSISTS, false);
    }

    /**
     * Unaligned barriers that never persist the records taken after the snapshot from an input
     * whose barrier is still to come: those records are in the cut but neither in the snapshot nor
     * in the channel state (caught as {@code NoSkipInv}).
     */
    public static BarrierMode unalignedWithoutPersisting() {
        return new Mode(Defect.NO_PERSISTING, true);
    }

    /**
     * Unaligned barriers that persist the records of the inputs whose barrier has already arrived
     * instead of the others (the spec's bug 5, as FLINK-18139: the wrong channels consulted for
     * in-flight data). Records after a barrier are persisted although their senders will replay
     * them (caught as {@code UnalignedChannelStateBoundInv}); the pending inputs' records are lost.
     */
    public static BarrierMode unalignedPersistingArrivedInputs() {
        return new Mode(Defect.PERSISTS_ARRIVED_INPUTS, true);
    }

    /**
     * Every broken mode in one state class: {@code checkpointId == 0} waits for a first barrier.
     * Not thread-safe, like every handler state: used by the one thread running its task.
     */
    private static final class State implements BarrierHandlerState {
        private final long checkpointId;
        private final boolean unaligned;
        private final Defect defect;
        private final BitSet arrived = new BitSet();

        State(long checkpointId, boolean unaligned, Defect defect) {
            this.checkpointId = checkpointId;
            this.unaligned = unaligned;
            this.defect = defect;
        }

        @Override
        public BarrierHandlerState barrierReceived(int input, Barrier barrier, BarrierHandlerContext ctx) {
            long c = barrier.checkpointId();
            State state = this;
            if (checkpointId == 0) {
                state = new State(c, unaligned, defect);
                if (unaligned) {
                    ctx.snapshot(c);
                    ctx.forwardBarrierOvertaking(c);
                }
            } else if (c < checkpointId) {
                return this; // obsolete, as in BarrierHandlers: not this twin's bug
            } else if (c > checkpointId) {
                // Subsumed by a newer barrier, as in AlignedCollectingBarriers: with aborts in the
                // property tests a newer barrier can come first, and the twin must then fail by its
                // own bug (an invariant), not by refusing the lifecycle.
                ctx.abandon(checkpointId);
                ctx.decline(checkpointId);
                return new State(0, unaligned, defect).barrierReceived(input, barrier, ctx);
            }
            state.arrived.set(input);
            if (state.arrived.cardinality() < ctx.inputCount()) {
                return state;
            }
            if (!unaligned) {
                ctx.snapshot(c);
                ctx.forwardBarrier(c);
            }
            ctx.acknowledge(c);
            return new State(0, unaligned, defect);
        }

        @Override
        public BarrierHandlerState recordReceived(int input, Record record, BarrierHandlerContext ctx) {
            if (checkpointId == 0) {
                return this;
            }
            boolean persist = switch (defect) {
                case NO_BLOCKING, NO_PERSISTING -> false; // THE BUG (NO_PERSISTING): should persist when !arrived
                case ALIGNED_PERSISTS -> !arrived.get(input); // THE BUG: aligned mode persists nothing
                case PERSISTS_ARRIVED_INPUTS -> arrived.get(input); // THE BUG: the condition inverted
            };
            if (persist) {
                ctx.persistInFlight(input, record);
            }
            return this;
        }

        // The lifecycle events, without a bug of their own: an abort or cancellation
        // of the checkpoint handled (or a newer one) abandons it; an ended input changes nothing
        // (these twins are not run with end of input).
        @Override
        public BarrierHandlerState cancelBarrierReceived(int input, long c, BarrierHandlerContext ctx) {
            return checkpointAborted(c, ctx);
        }

        @Override
        public BarrierHandlerState checkpointAborted(long c, BarrierHandlerContext ctx) {
            if (checkpointId == 0 || c < checkpointId) {
                return this;
            }
            ctx.abandon(c);
            return new State(0, unaligned, defect);
        }

        @Override
        public BarrierHandlerState endOfPartitionReceived(int input, BarrierHandlerContext ctx) {
            return this;
        }

        @Override
        public long latestCheckpointId() {
            return checkpointId;
        }

        @Override
        public boolean isBlocked(int input) {
            // THE BUG (NO_BLOCKING): an aligned input whose barrier arrived stays open.
            return !unaligned && defect != Defect.NO_BLOCKING && arrived.get(input);
        }

        @Override
        public long checkpointId() {
            return checkpointId;
        }

        @Override
        public String toString() {
            return "Broken[" + defect + ", checkpoint " + checkpointId + ", arrived " + arrived + "]";
        }
    }
}
