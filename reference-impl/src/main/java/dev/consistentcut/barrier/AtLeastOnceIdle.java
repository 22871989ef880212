package dev.consistentcut.barrier;

import dev.consistentcut.message.Barrier;
import dev.consistentcut.message.Record;
import java.util.TreeMap;

/**
 * At-least-once mode, no checkpoint pending: records pass. The first barrier of a checkpoint newer
 * than {@link #latestCheckpointId()} starts tracking it ({@link AtLeastOnceTracking}); obsolete
 * barriers are dropped. Nothing is ever blocked or persisted (Flink's
 * {@code CheckpointBarrierTracker}).
 */
final class AtLeastOnceIdle implements BarrierHandlerState {

    static final AtLeastOnceIdle INITIAL = new AtLeastOnceIdle(0);

    private final long latest;

    AtLeastOnceIdle(long latest) {
        this.latest = latest;
    }

    private AtLeastOnceTracking tracking() {
        return new AtLeastOnceTracking(latest, new TreeMap<>());
    }

    @Override
    public BarrierHandlerState barrierReceived(int input, Barrier barrier, BarrierHandlerContext ctx) {
        return barrier.checkpointId() <= latest ? this : tracking().barrierReceived(input, barrier, ctx);
    }

    @Override
    public BarrierHandlerState recordReceived(int input, Record record, BarrierHandlerContext ctx) {
        return this;
    }

    @Override
    public BarrierHandlerState cancelBarrierReceived(int input, long checkpointId, BarrierHandlerContext ctx) {
        if (checkpointId <= latest) {
            return this;
        }
        ctx.abandon(checkpointId);
        return new AtLeastOnceIdle(checkpointId);
    }

    @Override
    public BarrierHandlerState checkpointAborted(long checkpointId, BarrierHandlerContext ctx) {
        return Arrivals.rememberAbort(this, checkpointId, ctx);
    }

    @Override
    public BarrierHandlerState endOfPartitionReceived(int input, BarrierHandlerContext ctx) {
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

    @Override
    public long latestCheckpointId() {
        return latest;
    }

    @Override
    public String toString() {
        return "AtLeastOnceIdle[latest " + latest + "]";
    }
}
