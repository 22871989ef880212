package dev.consistentcut.barrier;

import dev.consistentcut.message.Barrier;
import dev.consistentcut.message.Record;
import java.util.Map;
import java.util.TreeMap;

/**
 * At-least-once mode, tracking one or more pending checkpoints (Flink's
 * {@code CheckpointBarrierTracker}): for each, the inputs whose barrier has arrived. Nothing is
 * blocked, so records of inputs that already delivered the barrier keep flowing into the state
 * (the snapshot may count them: at least once, not exactly once). When every input has delivered
 * a checkpoint's barrier or ended, the task snapshots, forwards the barrier in-band and
 * acknowledges; older pending checkpoints are then dropped (subsumed). A barrier of a checkpoint
 * older than the newest pending one that is not pending itself is obsolete. A cancellation or
 * abort of a pending checkpoint drops it and every older one (declined) and forwards the
 * cancellation; one of a newer checkpoint is remembered and forwarded.
 *
 * <p>Several checkpoints are pending at once because inputs with different latencies may deliver
 * the barriers of a later checkpoint before the last barrier of an earlier one (Flink test
 * {@code CheckpointBarrierTrackerTest#testCompleteCheckpointsOnLateBarriers}).
 */
final class AtLeastOnceTracking implements BarrierHandlerState {

    /** Newest checkpoint finished or abandoned here; everything at or below it is obsolete. */
    private final long latest;
    /** Pending checkpoints, all above {@link #latest}, to the inputs whose barrier arrived; never changed once a state holds it. */
    private final TreeMap<Long, Arrivals> pending;

    AtLeastOnceTracking(long latest, TreeMap<Long, Arrivals> pending) {
        this.latest = latest;
        this.pending = pending;
    }

    @Override
    public BarrierHandlerState barrierReceived(int input, Barrier barrier, BarrierHandlerContext ctx) {
        long c = barrier.checkpointId();
        if (c <= latest) {
            return this;
        }
        if (ctx.isAborted(c)) {
            return cancelBarrierReceived(input, c, ctx); // known to be aborted: cancelled on its first barrier
        }
        Arrivals arrived = pending.get(c);
        if (arrived == null) {
            if (!pending.isEmpty() && c < pending.lastKey()) {
                return this; // older than the newest pending and not pending: obsolete
            }
            arrived = Arrivals.NONE;
        }
        TreeMap<Long, Arrivals> next = new TreeMap<>(pending);
        next.put(c, arrived.with(input, c, ctx));
        return completeNewest(next, ctx);
    }

    /**
     * Snapshots the newest pending checkpoint that every input has delivered or ended, drops it
     * and every older one; the rest stays pending.
     */
    private BarrierHandlerState completeNewest(TreeMap<Long, Arrivals> next, BarrierHandlerContext ctx) {
        long done = 0;
        for (Map.Entry<Long, Arrivals> e : next.entrySet()) {
            if (e.getValue().all(ctx)) {
                done = e.getKey();
            }
        }
        if (done == 0) {
            return new AtLeastOnceTracking(latest, next);
        }
        ctx.snapshot(done);
        ctx.forwardBarrier(done);
        ctx.acknowledge(done);
        declineOlder(done, next, ctx);
        return after(done, next);
    }

    private static BarrierHandlerState after(long done, TreeMap<Long, Arrivals> next) {
        TreeMap<Long, Arrivals> rest = new TreeMap<>(next.tailMap(done, false));
        return rest.isEmpty() ? new AtLeastOnceIdle(done) : new AtLeastOnceTracking(done, rest);
    }

    @Override
    public BarrierHandlerState recordReceived(int input, Record record, BarrierHandlerContext ctx) {
        return this;
    }

    @Override
    public BarrierHandlerState cancelBarrierReceived(int input, long c, BarrierHandlerContext ctx) {
        if (c <= latest || (!pending.containsKey(c) && !pending.isEmpty() && c < pending.lastKey())) {
            return this; // obsolete
        }
        return abort(c, ctx);
    }

    /** Drops {@code c} and every older pending checkpoint (declined), forwards the cancellation. */
    private BarrierHandlerState abort(long c, BarrierHandlerContext ctx) {
        declineOlder(c, pending, ctx);
        ctx.abandon(c);
        return after(c, pending);
    }

    @Override
    public BarrierHandlerState checkpointAborted(long c, BarrierHandlerContext ctx) {
        if (!pending.containsKey(c)) {
            return Arrivals.rememberAbort(this, c, ctx);
        }
        return abort(c, ctx);
    }

    /** The pending checkpoints older than {@code c} are dropped with it: this task will never acknowledge them. */
    private static void declineOlder(long c, TreeMap<Long, Arrivals> pending, BarrierHandlerContext ctx) {
        for (long older : pending.headMap(c, false).keySet()) {
            ctx.decline(older);
        }
    }

    @Override
    public BarrierHandlerState endOfPartitionReceived(int input, BarrierHandlerContext ctx) {
        return completeNewest(pending, ctx);
    }

    @Override
    public boolean isBlocked(int input) {
        return false;
    }

    /** The oldest pending checkpoint. */
    @Override
    public long checkpointId() {
        return pending.isEmpty() ? 0 : pending.firstKey();
    }

    @Override
    public long latestCheckpointId() {
        return pending.isEmpty() ? latest : pending.lastKey();
    }

    @Override
    public String toString() {
        return "AtLeastOnceTracking[latest " + latest + ", pending " + pending + "]";
    }
}
