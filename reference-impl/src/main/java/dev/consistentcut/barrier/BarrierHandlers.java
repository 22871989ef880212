package dev.consistentcut.barrier;

/**
 * The shipped checkpointing modes, one factory each. Semantics as in {@code docs/vocabulary.md},
 * action {@code ReceiveBarrier}.
 */
public final class BarrierHandlers {

    private BarrierHandlers() {
    }

    private record Mode(String name, BarrierHandlerState initialState, boolean overtaking) implements BarrierMode {
    }

    private static final BarrierMode ALIGNED = new Mode("aligned", AlignedWaitingForFirstBarrier.INSTANCE, false);
    private static final BarrierMode UNALIGNED = new Mode("unaligned", UnalignedWaitingForFirstBarrier.INSTANCE, true);

    /**
     * Aligned barriers: a barrier blocks its input; on the last input's barrier the task snapshots,
     * forwards the barrier in-band on every output, unblocks all inputs and acknowledges.
     */
    public static BarrierMode aligned() {
        return ALIGNED;
    }

    /**
     * Unaligned barriers: on the first barrier the task snapshots and forwards the barrier at once,
     * overtaking (and persisting) each output's queued records; records taken afterwards from
     * inputs whose barrier has not arrived are processed and persisted; on the last barrier it
     * acknowledges. No input is ever blocked.
     */
    public static BarrierMode unaligned() {
        return UNALIGNED;
    }

    /** The mode called {@code name} ({@code aligned} or {@code unaligned}). */
    public static BarrierMode byName(String name) {
        return switch (name) {
            case "aligned" -> ALIGNED;
            case "unaligned" -> UNALIGNED;
            default -> throw new IllegalArgumentException("unknown mode '" + name + "': expected aligned or unaligned");
        };
    }

    static IllegalStateException wrongBarrier(BarrierHandlerContext ctx, int input, long handling, long received) {
        return new IllegalStateException("task " + ctx.taskId() + " input " + input + ": barrier of checkpoint "
                + received + " while handling checkpoint " + handling
                + " (a task handles one checkpoint's barriers at a time)");
    }

    static IllegalStateException secondBarrier(BarrierHandlerContext ctx, int input, long checkpointId) {
        return new IllegalStateException("task " + ctx.taskId() + " input " + input
                + ": a second barrier of checkpoint " + checkpointId + " on the same input");
    }
}
