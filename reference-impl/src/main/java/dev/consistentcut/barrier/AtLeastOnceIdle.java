package dev.consistentcut.barrier;

import dev.consistentcut.message.Barrier;
import java.util.TreeMap;

/**
 * At-least-once mode, no checkpoint pending ({@link AbstractWaitingForFirstBarrier}): the first
 * barrier of a newer checkpoint starts tracking it ({@link AtLeastOnceTracking}). Nothing is ever
 * blocked or persisted (Flink's {@code CheckpointBarrierTracker}).
 */
final class AtLeastOnceIdle extends AbstractWaitingForFirstBarrier {

    static final AtLeastOnceIdle INITIAL = new AtLeastOnceIdle(0);

    AtLeastOnceIdle(long latest) {
        super(latest);
    }

    @Override
    BarrierHandlerState start(int input, Barrier barrier, BarrierHandlerContext ctx) {
        return new AtLeastOnceTracking(latest, new TreeMap<>()).barrierReceived(input, barrier, ctx);
    }

    @Override
    BarrierHandlerState waiting(long latest) {
        return new AtLeastOnceIdle(latest);
    }
}
