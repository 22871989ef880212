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

    private static final BarrierMode ALIGNED = new Mode("aligned", AlignedWaitingForFirstBarrier.INITIAL, false);
    private static final BarrierMode UNALIGNED = new Mode("unaligned", UnalignedWaitingForFirstBarrier.INITIAL, true);
    private static final BarrierMode AT_LEAST_ONCE = new Mode("at-least-once", AtLeastOnceIdle.INITIAL, false);

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

    /**
     * At-least-once barriers (Flink's {@code CheckpointBarrierTracker}): nothing is ever blocked
     * or persisted; the task tracks which inputs delivered each pending checkpoint's barrier and,
     * on the last one, snapshots, forwards the barrier in-band and acknowledges. Records of inputs
     * whose barrier already arrived flow into the snapshot, so after a restore they may be
     * processed twice: {@code AtLeastOnceInv} holds, {@code ExactlyOnceInv} need not.
     */
    public static BarrierMode atLeastOnce() {
        return AT_LEAST_ONCE;
    }

    /** The names {@link #byName} accepts. */
    public static final java.util.List<String> NAMES = java.util.List.of("aligned", "unaligned", "at-least-once");

    /** The mode called {@code name} ({@code aligned}, {@code unaligned} or {@code at-least-once}). */
    public static BarrierMode byName(String name) {
        return switch (name) {
            case "aligned" -> ALIGNED;
            case "unaligned" -> UNALIGNED;
            case "at-least-once" -> AT_LEAST_ONCE;
            default -> throw new IllegalArgumentException("unknown mode '" + name
                    + "': expected aligned, unaligned or at-least-once");
        };
    }
}
