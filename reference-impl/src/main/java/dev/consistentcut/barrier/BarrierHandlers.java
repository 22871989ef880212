package dev.consistentcut.barrier;

import dev.consistentcut.annotation.TestSeam;

/**
 * The shipped checkpointing modes, one factory each. Semantics as in {@code docs/vocabulary.md},
 * action {@code ReceiveBarrier}.
 */
public final class BarrierHandlers {

    private BarrierHandlers() {
    }

    private record Mode(String name, BarrierHandlerState initialState, boolean overtaking,
                        DeliveryGuarantee deliveryGuarantee) implements BarrierMode {
    }

    private static final BarrierMode ALIGNED = new Mode("aligned", AlignedWaitingForFirstBarrier.INITIAL, false,
            DeliveryGuarantee.EXACTLY_ONCE);
    private static final BarrierMode UNALIGNED = new Mode("unaligned", UnalignedWaitingForFirstBarrier.INITIAL, true,
            DeliveryGuarantee.EXACTLY_ONCE);
    private static final BarrierMode AT_LEAST_ONCE = new Mode("at-least-once", AtLeastOnceIdle.INITIAL, false,
            DeliveryGuarantee.AT_LEAST_ONCE);

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

    /** The alignment timeout {@link #byName} gives {@code alternating}: 20 ms. */
    public static final long DEFAULT_ALIGNED_TIMEOUT_MILLIS = 20;

    /** Longest alignment timeout: 10 minutes. */
    public static final long MAX_ALIGNED_TIMEOUT_MILLIS = 600_000;

    private record Alternating(String name, long alignedTimeoutMillis, BarrierHandlerState initialState)
            implements BarrierMode {

        @Override
        public boolean overtaking() {
            return false; // sources inject aligned barriers; a task that times out forwards unaligned ones
        }

        @Override
        public boolean oneInFlight() {
            return true;
        }
    }

    /**
     * Aligned checkpoints with an alignment timeout (Flink's alternating barrier handler,
     * FLIP-76, {@code execution.checkpointing.aligned-checkpoint-timeout}): a checkpoint starts
     * aligned; a task whose alignment of it is still not done {@code alignedTimeoutMillis} after
     * its trigger (active), or whose input holds its barrier waiting that long (passive), switches
     * it to unaligned ({@code TimeoutAlignment}): it snapshots at once, persists what is ahead of
     * the barrier on the inputs still to deliver it, and forwards the barrier unaligned, so that
     * the tasks downstream handle it unaligned too. Savepoints (forced aligned) never switch.
     * One checkpoint in flight at a time.
     *
     * @param alignedTimeoutMillis 0 to {@link #MAX_ALIGNED_TIMEOUT_MILLIS}; the simulation runtime
     *     reads it as steps
     */
    public static BarrierMode alternating(long alignedTimeoutMillis) {
        if (alignedTimeoutMillis < 0 || alignedTimeoutMillis > MAX_ALIGNED_TIMEOUT_MILLIS) {
            throw new IllegalArgumentException("the aligned checkpoint timeout must be 0.." + MAX_ALIGNED_TIMEOUT_MILLIS
                    + " ms, got " + alignedTimeoutMillis);
        }
        return alternating("alternating", alignedTimeoutMillis, AlternatingDials.CORRECT);
    }

    /** Alternating mode with the given dials: the shipped one has {@link AlternatingDials#CORRECT}, broken twins others. */
    @TestSeam
    static BarrierMode alternating(String name, long alignedTimeoutMillis, AlternatingDials dials) {
        return new Alternating(name, alignedTimeoutMillis, new AlternatingWaitingForFirstBarrier(0, dials));
    }

    /** The names {@link #byName} accepts. */
    public static final java.util.List<String> NAMES = java.util.List.of("aligned", "unaligned", "at-least-once", "alternating");

    /**
     * The mode called {@code name} ({@code aligned}, {@code unaligned}, {@code at-least-once} or
     * {@code alternating}, the last with {@link #DEFAULT_ALIGNED_TIMEOUT_MILLIS}).
     */
    public static BarrierMode byName(String name) {
        return switch (name) {
            case "aligned" -> ALIGNED;
            case "unaligned" -> UNALIGNED;
            case "at-least-once" -> AT_LEAST_ONCE;
            case "alternating" -> alternating(DEFAULT_ALIGNED_TIMEOUT_MILLIS);
            default -> throw new IllegalArgumentException("unknown mode '" + name
                    + "': expected aligned, unaligned, at-least-once or alternating");
        };
    }
}
