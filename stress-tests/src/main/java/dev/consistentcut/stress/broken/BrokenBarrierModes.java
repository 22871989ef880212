package dev.consistentcut.stress.broken;

import dev.consistentcut.barrier.BarrierHandlerContext;
import dev.consistentcut.barrier.BarrierHandlerState;
import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.channel.Barrier;
import dev.consistentcut.record.Record;
import java.util.BitSet;

/**
 * DELIBERATELY BROKEN checkpointing modes, each missing exactly one rule of
 * {@link dev.consistentcut.barrier.BarrierHandlers}, to show that the stress and property tests
 * catch that bug. Never use them otherwise.
 */
public final class BrokenBarrierModes {

    private BrokenBarrierModes() {
    }

    private record Mode(String name, BarrierHandlerState initialState, boolean overtaking) implements BarrierMode {
    }

    /**
     * Aligned barriers that never block an input: records behind a barrier are processed before
     * the snapshot, so the snapshot counts records after the cut (caught as {@code NoDoubleCountInv}).
     */
    public static BarrierMode alignedWithoutBlocking() {
        return new Mode("broken-aligned-without-blocking", new Collecting(0, false), false);
    }

    /**
     * Unaligned barriers that never persist the records taken after the snapshot from an input
     * whose barrier is still to come: those records are in the cut but neither in the snapshot nor
     * in the channel state (caught as {@code NoSkipInv}).
     */
    public static BarrierMode unalignedWithoutPersisting() {
        return new Mode("broken-unaligned-without-persisting", new Collecting(0, true), true);
    }

    /**
     * Both broken modes in one state class: {@code checkpointId == 0} waits for a first barrier.
     * Not thread-safe, like every handler state: used by the one thread running its task.
     */
    private static final class Collecting implements BarrierHandlerState {
        private final long checkpointId;
        private final boolean unaligned;
        private final BitSet arrived = new BitSet();

        Collecting(long checkpointId, boolean unaligned) {
            this.checkpointId = checkpointId;
            this.unaligned = unaligned;
        }

        @Override
        public BarrierHandlerState barrierReceived(int input, Barrier barrier, BarrierHandlerContext ctx) {
            long c = barrier.checkpointId();
            Collecting state = this;
            if (checkpointId == 0) {
                state = new Collecting(c, unaligned);
                if (unaligned) {
                    ctx.snapshot(c);
                    ctx.forwardBarrierOvertaking(c);
                }
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
            return new Collecting(0, unaligned);
        }

        @Override
        public BarrierHandlerState recordReceived(int input, Record record, BarrierHandlerContext ctx) {
            return this; // THE BUG (unaligned): no ctx.persistInFlight(input, record) before the input's barrier
        }

        @Override
        public boolean isBlocked(int input) {
            return false; // THE BUG (aligned): an input whose barrier arrived is not blocked
        }

        @Override
        public long checkpointId() {
            return checkpointId;
        }

        @Override
        public String toString() {
            return "BrokenCollecting[checkpoint " + checkpointId + ", arrived " + arrived + "]";
        }
    }
}
