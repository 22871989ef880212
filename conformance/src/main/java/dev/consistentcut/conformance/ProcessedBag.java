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
        attempt = TraceLog.current().attempt(runtime.getTaskInfo().getAttemptNumber());
        TraceLog.current().placed(task, attempt, runtime.getMetricGroup().getAllVariables().get("<tm_id>"),
                tmIndex(runtime));
        ListStateDescriptor<String> descriptor = spec.fault() == RunSpec.Fault.DECLINE
                ? new ListStateDescriptor<String>("processed", DecliningSerializer.INSTANCE)
                : new ListStateDescriptor<String>("processed", String.class);
        state = context.getOperatorStateStore().getListState(descriptor);
        bag.clear();
        if (!dropRestored) {
            for (String entry : state.get()) {
                if (entry.equals(DecliningSerializer.DECLINE)) {
                    continue; // never in a completed checkpoint (its write fails), a guard all the same
                }
                int hash = entry.lastIndexOf('#');
                bag.merge(entry.substring(0, hash), Integer.parseInt(entry.substring(hash + 1)), Integer::sum);
            }
        }
        long restored = context.getRestoredCheckpointId().orElse(0L);
        TraceLog.current().event("InitializeState", task, attempt, "restored", restored, "processed",
                TraceLog.bag(bag));
    }

    /**
     * The MiniCluster index of the TaskManager this task runs on: the MiniCluster gives TaskManager
     * {@code i} the working directory {@code tm_<i>} (MiniCluster#startTaskManager), whose
     * {@code tmp} the task sees as its TaskManager's temporary working directory; -1 if unknown.
     */
    static int tmIndex(RuntimeContext runtime) {
        if (runtime instanceof org.apache.flink.streaming.api.operators.StreamingRuntimeContext s) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile("[/\\\\]tm_(\\d+)[/\\\\]")
                    .matcher(s.getTaskManagerRuntimeInfo().getTmpWorkingDirectory().getAbsolutePath() + "/");
            if (m.find()) {
                return Integer.parseInt(m.group(1));
            }
        }
        return -1;
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
        RunSpec.Fault fault = checkpointFault(context.getCheckpointId());
        List<String> entries = new ArrayList<>();
        bag.forEach((id, n) -> entries.add(id + "#" + n));
        if (fault == RunSpec.Fault.DECLINE) {
            entries.add(DecliningSerializer.DECLINE); // the asynchronous part fails: the task declines
        }
        state.update(entries);
        if (fault == null) {
            TraceLog.current().event("SnapshotState", task, attempt, "checkpoint", context.getCheckpointId(), "snapshot",
                    TraceLog.bag(bag));
        } else if (fault == RunSpec.Fault.DECLINE) {
            // the function's snapshot is taken (TraceFlink.tla: the spec's task snapshots and
            // acknowledges in one step); Flink's task then declines (fault: TraceFlink.tla reads it not)
            TraceLog.current().event("SnapshotState", task, attempt, "checkpoint", context.getCheckpointId(), "snapshot",
                    TraceLog.bag(bag), "fault", "decline");
        } else {
            TraceLog.current().event("SnapshotState", task, attempt, "checkpoint", context.getCheckpointId(), "snapshot",
                    TraceLog.bag(bag), "fault", "timeout", "slowMillis", RunSpec.SLOW_SNAPSHOT_MILLIS);
            slow();
        }
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
        if (spec.fault() == RunSpec.Fault.THROW && attempt < spec.failures() && r.off >= spec.gates().get(attempt)
                && TraceLog.current().claimFault(attempt)) {
            TraceLog.current().event("FailTask", task, attempt, "cause", "seeded-throw");
            throw new SeededFailure(task + " attempt " + attempt + " at " + r.id());
        }
    }

    /**
     * The seeded fault of a checkpoint ({@link RunSpec.Fault#DECLINE}, {@link RunSpec.Fault#TIMEOUT})
     * in the keyed operator's {@code snapshotState} of checkpoint {@code c}: fault {@code k} falls
     * on the first snapshot of a keyed task while a source waits at gate {@code k} (so on that
     * gate's checkpoint), one per gate in the whole job. Returns the fault, or null.
     */
    private RunSpec.Fault checkpointFault(long c) {
        RunSpec.Fault f = spec.fault();
        TraceLog log = TraceLog.current();
        int k = log.faults();
        if (!uid.equals("join") || !f.failsCheckpoint() || k >= spec.failures() || !log.sourceWaitsAtGate(k)
                || !log.claimFault(k)) {
            return null;
        }
        return f;
    }

    /** The slow part of a timed-out snapshot: longer than the checkpoint timeout. */
    static void slow() {
        try {
            Thread.sleep(RunSpec.SLOW_SNAPSHOT_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // the task is being cancelled
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
