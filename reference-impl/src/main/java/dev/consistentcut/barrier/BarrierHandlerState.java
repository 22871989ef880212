package dev.consistentcut.barrier;

import dev.consistentcut.channel.Barrier;
import dev.consistentcut.record.Record;

/**
 * One state of an operator task's barrier handling (the model is Flink's
 * {@code org.apache.flink.streaming.runtime.io.checkpointing.BarrierHandlerState}): an event
 * returns the next state, so each mode is a handful of small classes and a new mode is new states,
 * not new branches in the task loop.
 *
 * <p>Not thread-safe: a state belongs to one task and is used only by the thread running it.
 */
public interface BarrierHandlerState {

    /**
     * The task took {@code barrier} from physical input {@code input}.
     *
     * @throws IllegalStateException naming task, input and both checkpoint ids if the barrier
     *     belongs to another checkpoint than the one being handled, or arrives twice on one input
     */
    BarrierHandlerState barrierReceived(int input, Barrier barrier, BarrierHandlerContext ctx);

    /** The task took {@code record} from physical input {@code input} and is about to process it. */
    BarrierHandlerState recordReceived(int input, Record record, BarrierHandlerContext ctx);

    /** Whether the task must not take anything from {@code input} now. */
    boolean isBlocked(int input);

    /** The checkpoint whose barriers are being handled, or 0 when waiting for a first barrier. */
    long checkpointId();
}
