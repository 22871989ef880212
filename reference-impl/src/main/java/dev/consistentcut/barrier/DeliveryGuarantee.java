package dev.consistentcut.barrier;

/**
 * What a {@link BarrierMode} promises after a failure and restore (Flink's {@code CheckpointingMode}):
 * every record counted exactly once ({@code ExactlyOnceInv}: aligned, unaligned, alternating), or
 * at least once ({@code AtLeastOnceInv}: at-least-once, whose snapshots may count a record that
 * followed an earlier barrier). It decides which final-state invariant a run is checked against,
 * which spec a trace follows and what the CLI's verdict and output check claim.
 */
public enum DeliveryGuarantee {
    /** No record lost, none counted twice. */
    EXACTLY_ONCE,
    /** No record lost; a record may be counted more than once. */
    AT_LEAST_ONCE
}
