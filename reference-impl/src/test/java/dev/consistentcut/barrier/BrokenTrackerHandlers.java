package dev.consistentcut.barrier;

import dev.consistentcut.message.Barrier;
import dev.consistentcut.message.Record;

/**
 * A deliberately broken at-least-once tracker (several checkpoints tracked at once), the twin of the spec's failing
 * model {@code BugOlderBarrierCountsForNewest}: it wraps the correct states ({@link AtLeastOnceIdle},
 * {@link AtLeastOnceTracking}) and changes one event, so that tests can show the engine's checks
 * and trace validation catch it. Its mode is named {@code at-least-once}, as the mode it breaks,
 * so that its traces are checked against the at-least-once spec.
 */
public final class BrokenTrackerHandlers {

    private BrokenTrackerHandlers() {
    }

    private record Mode(String name, BarrierHandlerState initialState, boolean overtaking) implements BarrierMode {

        @Override
        public DeliveryGuarantee deliveryGuarantee() {
            return DeliveryGuarantee.AT_LEAST_ONCE; // it breaks the at-least-once mode, whose promise is checked
        }
    }

    /**
     * {@code BugOlderBarrierCountsForNewest}: a barrier of the oldest of several tracked checkpoints
     * is counted for the newest one (FLINK-20654's mechanism in the tracker), which may then
     * snapshot before the records its offsets cover.
     */
    public static BarrierMode olderBarrierCountsForNewest() {
        return new Mode("at-least-once", new OlderCountsForNewest(AtLeastOnceIdle.INITIAL), false);
    }

    /** The correct tracker, with the one change. */
    private record OlderCountsForNewest(BarrierHandlerState inner) implements BarrierHandlerState {

        @Override
        public BarrierHandlerState barrierReceived(int input, Barrier barrier, BarrierHandlerContext ctx) {
            long c = barrier.checkpointId();
            long oldest = inner.checkpointId();
            long newest = inner.latestCheckpointId();
            if (oldest != 0 && c == oldest && c < newest && !ctx.isAborted(c)) {
                // THE BUG: the correct tracker counts the barrier for its own checkpoint
                return new OlderCountsForNewest(inner.barrierReceived(input, new Barrier(newest), ctx));
            }
            return new OlderCountsForNewest(inner.barrierReceived(input, barrier, ctx));
        }

        @Override
        public BarrierHandlerState recordReceived(int input, Record record, BarrierHandlerContext ctx) {
            return new OlderCountsForNewest(inner.recordReceived(input, record, ctx));
        }

        @Override
        public BarrierHandlerState cancelBarrierReceived(int input, long c, BarrierHandlerContext ctx) {
            return new OlderCountsForNewest(inner.cancelBarrierReceived(input, c, ctx));
        }

        @Override
        public BarrierHandlerState checkpointAborted(long c, BarrierHandlerContext ctx) {
            return new OlderCountsForNewest(inner.checkpointAborted(c, ctx));
        }

        @Override
        public BarrierHandlerState endOfPartitionReceived(int input, BarrierHandlerContext ctx) {
            return new OlderCountsForNewest(inner.endOfPartitionReceived(input, ctx));
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
            return "OlderCountsForNewest[" + inner + "]";
        }
    }
}
