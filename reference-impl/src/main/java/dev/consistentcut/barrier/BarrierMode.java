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
}
