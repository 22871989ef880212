package dev.consistentcut.checkpoint;

import dev.consistentcut.message.RecordId;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What one operator task instance put into a checkpoint: its user operator state as bytes and its
 * ledger of processed records (the spec's {@code processed[t]}, a bag: record id to the number of
 * times the task processed it). Source tasks have no snapshot; their offset is in
 * {@link CompletedCheckpoint#sourceOffsets()}. Immutable and thread-safe (defensive copies).
 */
public record TaskSnapshot(byte[] operatorState, Map<RecordId, Integer> processed) {

    public TaskSnapshot {
        Objects.requireNonNull(operatorState, "operatorState");
        Objects.requireNonNull(processed, "processed");
        operatorState = operatorState.clone();
        processed = Map.copyOf(new TreeMap<>(processed));
    }

    @Override
    public byte[] operatorState() {
        return operatorState.clone();
    }

    /** Times this task had processed {@code id} when the snapshot was taken (0 if never). */
    public int timesProcessed(RecordId id) {
        return processed.getOrDefault(id, 0);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TaskSnapshot t
                && Arrays.equals(operatorState, t.operatorState)
                && processed.equals(t.processed);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.hashCode(operatorState) + processed.hashCode();
    }

    @Override
    public String toString() {
        return "TaskSnapshot[stateBytes=" + operatorState.length + ", processed=" + processed + "]";
    }
}
