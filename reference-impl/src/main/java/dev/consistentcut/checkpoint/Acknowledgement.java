package dev.consistentcut.checkpoint;

import dev.consistentcut.message.Record;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One task's contribution to checkpoint {@code checkpointId}, sent to the
 * {@link CheckpointCoordinator} by the spec actions {@code InjectBarrier} (sources) and
 * {@code ReceiveBarrier} (operators).
 *
 * <p>A channel's persisted state can have two parts: the records its receiver took from it after
 * the receiver's snapshot and before the channel's barrier arrived ({@code inputChannelState} of
 * the receiver), and the records the barrier overtook when the sender put it in the priority lane
 * ({@code outputChannelState} of the sender). In FIFO order the receiver's part comes first: the
 * coordinator concatenates them in that order. Both are empty in aligned mode.
 *
 * @param task the task instance id
 * @param checkpointId the checkpoint, starting at 1
 * @param sourceOffset for a source: the offset recorded with its barrier; -1 for an operator
 * @param snapshot for an operator: its state and processed-record ledger; null for a source
 * @param inputChannelState per input channel id: records persisted by this task as receiver
 * @param outputChannelState per output channel id: records its barrier overtook
 * @param startDelay from the trigger to this task's first barrier (time unit of the runtime)
 * @param alignmentDuration from this task's first barrier to its last
 *
 * <p>Immutable and thread-safe (defensive copies).
 */
public record Acknowledgement(
        String task,
        long checkpointId,
        long sourceOffset,
        TaskSnapshot snapshot,
        Map<String, List<Record>> inputChannelState,
        Map<String, List<Record>> outputChannelState,
        long startDelay,
        long alignmentDuration) {

    public Acknowledgement {
        Objects.requireNonNull(task, "task");
        if (checkpointId < 1) {
            throw new IllegalArgumentException("checkpointId must be >= 1, got " + checkpointId);
        }
        if ((sourceOffset >= 0) == (snapshot != null)) {
            throw new IllegalArgumentException(
                    "task " + task + ": an acknowledgement carries a source offset or an operator snapshot, exactly one");
        }
        inputChannelState = copy(inputChannelState);
        outputChannelState = copy(outputChannelState);
    }

    /**
     * The same final state for checkpoint {@code id}: an ended task's state, recorded for every
     * checkpoint after it ended (no channel state, no delays: it took no part).
     */
    public Acknowledgement withCheckpointId(long id) {
        return new Acknowledgement(task, id, sourceOffset, snapshot, Map.of(), Map.of(), 0, 0);
    }

    private static Map<String, List<Record>> copy(Map<String, List<Record>> m) {
        Objects.requireNonNull(m, "channel state");
        return m.entrySet().stream()
                .collect(java.util.stream.Collectors.toUnmodifiableMap(
                        Map.Entry::getKey, e -> List.copyOf(e.getValue())));
    }

    /** A source's acknowledgement: it recorded {@code offset} and its barrier overtook {@code overtaken}. */
    public static Acknowledgement ofSource(
            String task, long checkpointId, long offset, Map<String, List<Record>> overtaken, long startDelay) {
        if (offset < 0) {
            throw new IllegalArgumentException("task " + task + ": source offset must be >= 0, got " + offset);
        }
        return new Acknowledgement(task, checkpointId, offset, null, Map.of(), overtaken, startDelay, 0);
    }

    /** An operator's acknowledgement. */
    public static Acknowledgement ofOperator(
            String task,
            long checkpointId,
            TaskSnapshot snapshot,
            Map<String, List<Record>> inputChannelState,
            Map<String, List<Record>> outputChannelState,
            long startDelay,
            long alignmentDuration) {
        Objects.requireNonNull(snapshot, "snapshot");
        return new Acknowledgement(
                task, checkpointId, -1, snapshot, inputChannelState, outputChannelState, startDelay, alignmentDuration);
    }

    public boolean isSource() {
        return snapshot == null;
    }
}
