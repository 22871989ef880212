package dev.consistentcut.barrier;

import dev.consistentcut.record.Record;

/**
 * What a barrier handler state may ask of the operator task it runs in. The task implements it;
 * the states decide <em>when</em> each of these happens, the task knows <em>how</em>. Called only
 * from the task's own thread, inside its {@code receiveBarrier} and {@code processRecord} steps.
 */
public interface BarrierHandlerContext {

    /** The task instance id, for error messages. */
    String taskId();

    /** Number of physical inputs of the task (at least 1). */
    int inputCount();

    /** Takes the operator state and processed ledger now, as the task's snapshot for {@code checkpointId}. */
    void snapshot(long checkpointId);

    /** Aligned: puts barrier {@code checkpointId} on every output, behind the queued records (in-band). */
    void forwardBarrier(long checkpointId);

    /**
     * Unaligned: puts barrier {@code checkpointId} in the priority lane of every output, ahead of
     * the queued records, and keeps the records it overtook as that output's channel state.
     */
    void forwardBarrierOvertaking(long checkpointId);

    /**
     * Unaligned: {@code record} was taken from {@code input} after the snapshot and before that
     * input's barrier, so it belongs to the input channel's state in the checkpoint.
     */
    void persistInFlight(int input, Record record);

    /** Sends the task's acknowledgement of {@code checkpointId} to the coordinator. */
    void acknowledge(long checkpointId);
}
