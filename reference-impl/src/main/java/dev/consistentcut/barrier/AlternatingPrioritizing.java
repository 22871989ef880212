package dev.consistentcut.barrier;

/**
 * An alternating state that handles, or awaits, a checkpoint unaligned: a barrier of it queued on
 * an input that has not delivered it ({@link #prioritizable}) jumps to the head of its channel as
 * it comes, overtaking that input's backlog (Flink: {@code announcementReceived} in
 * {@code AlternatingWaitingForFirstBarrierUnaligned} and {@code AlternatingCollectingBarriersUnaligned}).
 * The two states differ in which checkpoint and which inputs; what the step does is said here once.
 */
interface AlternatingPrioritizing extends BarrierHandlerState {

    /** The dials of the alternating mode this state belongs to. */
    AlternatingDials dials();

    @Override
    default BarrierHandlerState prioritizeBarrier(int input, BarrierHandlerContext ctx) {
        long c = prioritizable(input, ctx);
        if (c == 0) {
            throw Arrivals.prioritizeNotEnabled(ctx, input, this);
        }
        ctx.prioritizeBarrier(input, c, dials().persists(false));
        return this;
    }
}
