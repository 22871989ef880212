package dev.consistentcut.stress.broken;

import dev.consistentcut.barrier.BarrierHandlerContext;
import dev.consistentcut.barrier.BarrierHandlerState;
import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.message.Barrier;
import dev.consistentcut.message.Record;
import java.util.BitSet;

/**
 * DELIBERATELY BROKEN aligned mode that only three or more inputs expose, to show that
 * {@code Aligned_02_ThreeInputRace} catches it. Never use it otherwise.
 */
public final class BrokenAlignedModes {

    private BrokenAlignedModes() {
    }

    private record Mode(String name, BarrierHandlerState initialState, boolean overtaking) implements BarrierMode {
    }

    /**
     * Aligned barriers that complete the alignment once two barriers have arrived, as if every
     * task had two inputs (a join's handler reused): with three inputs the snapshot is taken
     * before the third input's barrier, so it misses records before the cut of that input (caught
     * as {@code NoSkipInv}), and the third barrier then starts the same checkpoint again.
     * Everything else as the engine's aligned handler.
     */
    public static BarrierMode alignedAssumingTwoInputs() {
        return new Mode("broken-aligned-assuming-two-inputs", new State(0), false);
    }

    /** {@code checkpointId == 0}: waiting for a first barrier. Confined to its task's thread. */
    private static final class State implements BarrierHandlerState {
        private final long checkpointId;
        private final BitSet arrived = new BitSet();

        State(long checkpointId) {
            this.checkpointId = checkpointId;
        }

        @Override
        public BarrierHandlerState barrierReceived(int input, Barrier barrier, BarrierHandlerContext ctx) {
            long c = barrier.checkpointId();
            State state = checkpointId == 0 ? new State(c) : this;
            state.arrived.set(input);
            if (state.arrived.cardinality() < 2) { // THE BUG: should be ctx.inputCount()
                return state;
            }
            ctx.snapshot(c);
            ctx.forwardBarrier(c);
            ctx.acknowledge(c);
            return new State(0);
        }

        @Override
        public BarrierHandlerState recordReceived(int input, Record record, BarrierHandlerContext ctx) {
            return this;
        }

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
            return new State(0);
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
            return arrived.get(input);
        }

        @Override
        public long checkpointId() {
            return checkpointId;
        }

        @Override
        public String toString() {
            return "BrokenAssumingTwoInputs[checkpoint " + checkpointId + ", arrived " + arrived + "]";
        }
    }
}
