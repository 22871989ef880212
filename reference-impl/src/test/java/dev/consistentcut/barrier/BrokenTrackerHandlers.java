package dev.consistentcut.barrier;

import dev.consistentcut.message.Barrier;
import dev.consistentcut.message.Record;

/**
 * Deliberately broken at-least-once trackers, one bug each: the twin of the spec's failing model
 * {@code BugOlderBarrierCountsForNewest} (several checkpoints tracked at once), and a tracker that
 * snapshots on a checkpoint's first barrier (caught by the spec-to-engine replay). Each wraps the
 * correct states ({@link AtLeastOnceIdle}, {@link AtLeastOnceTracking}) and changes one event, so
 * that tests can show the engine's checks, trace validation and the replay catch it. Its mode is
 * named {@code at-least-once}, as the mode it breaks, so that its traces are checked against the
 * at-least-once spec.
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
        return mode(Bug.OLDER_BARRIER_COUNTS_FOR_NEWEST);
    }

    /**
     * A tracker that counts a checkpoint's first barrier as every input's and snapshots at once:
     * the records still ahead of the other inputs' barriers are below the sources' offsets in the
     * checkpoint but in no snapshot, so a restore loses them (the spec's {@code NoSkipInv}).
     */
    public static BarrierMode snapshotOnFirstBarrier() {
        return mode(Bug.SNAPSHOT_ON_FIRST_BARRIER);
    }

    private static BarrierMode mode(Bug bug) {
        return new Mode("at-least-once", new Wrapped(AtLeastOnceIdle.INITIAL, bug), false);
    }

    enum Bug {
        OLDER_BARRIER_COUNTS_FOR_NEWEST,
        SNAPSHOT_ON_FIRST_BARRIER
    }

    /** The correct tracker, with the one change of {@code bug}. */
    private record Wrapped(BarrierHandlerState inner, Bug bug) implements BarrierHandlerState {

        private Wrapped wrap(BarrierHandlerState next) {
            return new Wrapped(next, bug);
        }

        @Override
        public BarrierHandlerState barrierReceived(int input, Barrier barrier, BarrierHandlerContext ctx) {
            long c = barrier.checkpointId();
            long oldest = inner.checkpointId();
            long newest = inner.latestCheckpointId();
            if (bug == Bug.OLDER_BARRIER_COUNTS_FOR_NEWEST && oldest != 0 && c == oldest && c < newest && !ctx.isAborted(c)) {
                // THE BUG: the correct tracker counts the barrier for its own checkpoint
                return wrap(inner.barrierReceived(input, new Barrier(newest), ctx));
            }
            if (bug == Bug.SNAPSHOT_ON_FIRST_BARRIER && c > newest && !ctx.isAborted(c)) {
                // THE BUG: the correct tracker counts the barrier for its own input only
                BarrierHandlerState next = inner;
                for (int i = 0; i < ctx.inputCount(); i++) {
                    next = next.barrierReceived(i, barrier, ctx);
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
            return bug + "[" + inner + "]";
        }
    }
}
