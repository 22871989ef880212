package dev.consistentcut.conformance;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.functions.RuntimeContext;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;

/**
 * The trace's view of one operator task: the bag of records it has processed (the spec's
 * {@code processed[task]}), kept in operator {@code ListState} so that Flink checkpoints and
 * restores it with the task, and the events of the task's state and checkpoint notifications.
 * One per function instance; used from the task's thread only (Flink calls a function's
 * processElement, snapshotState and notify methods from its mailbox thread).
 */
final class ProcessedBag {

    private final String uid;
    private final RunSpec spec;
    private final Map<String, Integer> bag = new LinkedHashMap<>();
    private ListState<String> state;
    private String task;
    private int attempt;

    ProcessedBag(String uid, RunSpec spec) {
        this.uid = uid;
        this.spec = spec;
    }

    String task() {
        return task;
    }

    int attempt() {
        return attempt;
    }

    /** {@code CheckpointedFunction.initializeState}: reads the restored bag and writes {@code InitializeState}. */
    void initializeState(FunctionInitializationContext context, RuntimeContext runtime, boolean dropRestored)
            throws Exception {
        task = uid + "#" + runtime.getTaskInfo().getIndexOfThisSubtask();
        attempt = runtime.getTaskInfo().getAttemptNumber();
        state = context.getOperatorStateStore().getListState(new ListStateDescriptor<>("processed", String.class));
        bag.clear();
        if (!dropRestored) {
            for (String entry : state.get()) {
                int hash = entry.lastIndexOf('#');
                bag.merge(entry.substring(0, hash), Integer.parseInt(entry.substring(hash + 1)), Integer::sum);
            }
        }
        long restored = context.getRestoredCheckpointId().orElse(0L);
        TraceLog.current().event("InitializeState", task, attempt, "restored", restored, "processed",
                TraceLog.bag(bag));
    }

    /** The first line of processElement: writes {@code ProcessRecord} for {@code r} on its channel. */
    void processRecord(Rec r) {
        TraceLog.current().event("ProcessRecord", task, attempt, "channel", List.of(r.via, task), "record",
                r.traceForm());
    }

    /** Counts {@code r} into the bag. */
    void add(Rec r) {
        bag.merge(r.id(), 1, Integer::sum);
    }

    /** {@code CheckpointedFunction.snapshotState}: stores the bag and writes {@code SnapshotState}. */
    void snapshotState(FunctionSnapshotContext context) throws Exception {
        List<String> entries = new ArrayList<>();
        bag.forEach((id, n) -> entries.add(id + "#" + n));
        state.update(entries);
        TraceLog.current().event("SnapshotState", task, attempt, "checkpoint", context.getCheckpointId(), "snapshot",
                TraceLog.bag(bag));
    }

    /** {@link CheckpointListener#notifyCheckpointComplete}. */
    void notifyCheckpointComplete(long checkpointId) {
        TraceLog.current().event("NotifyCheckpointComplete", task, attempt, "checkpoint", checkpointId);
    }

    /** {@link CheckpointListener#notifyCheckpointAborted}. */
    void notifyCheckpointAborted(long checkpointId) {
        TraceLog.current().event("NotifyCheckpointAborted", task, attempt, "checkpoint", checkpointId);
    }

    /**
     * The seeded fault: in attempt {@code a < failures}, the first keyed task to reach a record at
     * or past gate {@code a} throws (one throw per attempt in the whole job, claimed in the run's log).
     */
    void maybeThrow(Rec r) {
        if (attempt < spec.failures() && r.off >= spec.gates().get(attempt) && TraceLog.current().claimThrow(attempt)) {
            TraceLog.current().event("FailTask", task, attempt, "cause", "seeded-throw");
            throw new SeededFailure(task + " attempt " + attempt + " at " + r.id());
        }
    }

    /** The seeded throw (an ordinary exception to Flink's restart strategy). */
    static final class SeededFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        SeededFailure(String where) {
            super("seeded failure: " + where);
        }
    }
}
