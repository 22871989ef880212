package dev.consistentcut.barrier;

/**
 * A per-job checkpointing mode: which handler state every operator task starts in, and whether
 * barriers overtake records (sources then use the priority lane, and the coordinator allows one
 * checkpoint in flight). Get the shipped modes from {@link BarrierHandlers}. Implementations are
 * immutable and thread-safe.
 */
public interface BarrierMode {

    /** A short name: {@code aligned}, {@code unaligned}. */
    String name();

    /** The state an operator task starts in, and returns to after a restore. */
    BarrierHandlerState initialState();

    /** Whether barriers overtake queued records (unaligned) or travel in-band (aligned). */
    boolean overtaking();

    /**
     * Alternating mode: how long, in milliseconds since its trigger, a checkpoint may stay aligned
     * before a task switches it to unaligned ({@code TimeoutAlignment}; Flink's
     * {@code execution.checkpointing.aligned-checkpoint-timeout}). Negative (the default): the
     * mode has no alignment timeout.
     */
    default long alignedTimeoutMillis() {
        return -1;
    }

    /**
     * Whether the coordinator allows only one checkpoint in flight (unaligned, and alternating,
     * whose checkpoints may turn unaligned; Flink requires the same of unaligned checkpoints).
     */
    default boolean oneInFlight() {
        return overtaking();
    }

    /** What the mode promises: exactly once unless it says otherwise (at-least-once). */
    default DeliveryGuarantee deliveryGuarantee() {
        return DeliveryGuarantee.EXACTLY_ONCE;
    }
}
