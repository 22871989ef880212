package dev.consistentcut.replay;

import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.checkpoint.TaskSnapshot;
import dev.consistentcut.graph.PhysicalGraph;
import dev.consistentcut.message.Barrier;
import dev.consistentcut.message.CancelBarrier;
import dev.consistentcut.message.EndOfPartition;
import dev.consistentcut.message.Message;
import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import dev.consistentcut.runtime.SimulationRuntime;
import dev.consistentcut.sink.SinkDirectory;
import dev.consistentcut.sink.SinkFiles;
import dev.consistentcut.sink.TransactionalFileSink;
import dev.consistentcut.task.OperatorTask;
import dev.consistentcut.task.Step;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The abstraction function of the replay: the engine's state as the spec's variables, in the
 * canonical strings of {@link Canon}. Task instances are the spec's tasks ({@code join#0} is
 * {@code join}: the replayed models have parallelism 1); a record is its id (source, offset).
 *
 * <ul>
 *   <li>{@code offset[s]}: {@code SourceTask.offset()};</li>
 *   <li>{@code chan[e]}: {@code Channel.contents()} (priority lane, then records; a barrier that
 *       is not {@code aligned()}, alternating mode's overtaking one, is the spec's
 *       {@code OvertakingBarrier});</li>
 *   <li>{@code processed[t]}: {@code OperatorTask.processed()};</li>
 *   <li>{@code handling[t]}, {@code current[t]} (operators): the handler state's
 *       {@code checkpointId()}, {@code latestCheckpointId()};</li>
 *   <li>{@code arrived[t]} (aligned): the blocked inputs; (alternating) the inputs the handler
 *       state says have {@code arrived(i)}, blocked or not;</li>
 *   <li>{@code unalignedAt[t]} (alternating): the handler state's {@code unalignedCheckpointId()};
 *       {@code switchedAt[c]}: {@code CheckpointCoordinator.switchedTasks(c)};</li>
 *   <li>{@code ended[s]} ({@code s \in endedSources}): {@code SourceTask.ended()}; {@code endedInputs[t]}:
 *       the inputs {@code OperatorTask.inputEnded(i)};</li>
 *   <li>{@code ckpt[c]}: {@code CheckpointCoordinator.status(c)}; {@code latest}: the latest completed id;</li>
 *   <li>{@code snapOffset}, {@code snapProcessed}, {@code snapChan} of every completed checkpoint:
 *       the {@code CompletedCheckpoint}'s offsets, ledgers and channel state;</li>
 *   <li>with the transactional sink ({@code TransactionalFileSink} on a {@code MemorySinkDirectory}):
 *       {@code txnOpen[t]}, {@code txnPending[t]} (while the sink has not ended),
 *       {@code uncommitted[t]} and {@code committed}, see {@link #sink}.</li>
 * </ul>
 */
final class EngineView {

    private final SimulationRuntime runtime;
    private final PhysicalGraph graph;
    private final boolean aligned;
    private final boolean alternating;
    private final int checkpoints;
    /**
     * The spec's {@code discardedUpTo}: the checkpoints triggered before the last failure. A
     * restored handler starts from id 0, the spec's task past those ids; no barrier of them is
     * left after the restore (the coordinator discards their acknowledgements), so the two agree
     * on what is obsolete, and {@code current[t]} is compared as the larger of the two.
     */
    private long discardedUpTo;

    /** The directory of the job's transactional sinks (null without them). */
    private final SinkDirectory sinkDirectory;

    EngineView(SimulationRuntime runtime, boolean aligned, boolean alternating, int checkpoints, SinkDirectory sinkDirectory) {
        this.runtime = runtime;
        this.sinkDirectory = sinkDirectory;
        this.graph = runtime.graph();
        this.aligned = aligned;
        this.alternating = alternating;
        this.checkpoints = checkpoints;
    }

    /** After {@code FailAndRestore}: every checkpoint triggered so far is discarded. */
    void failed() {
        long id = 0;
        while (runtime.coordinator().status(id + 1) != dev.consistentcut.checkpoint.CheckpointStatus.NONE) {
            id++;
        }
        discardedUpTo = id;
    }

    /** The spec's task or source name of an engine task instance or record source. */
    static String specName(String instance) {
        int hash = instance.lastIndexOf('#');
        return hash < 0 ? instance : instance.substring(0, hash);
    }

    String edgeOf(PhysicalGraph.ChannelSpec c) {
        return Canon.edge(specName(c.sender()), specName(c.receiver()));
    }

    /** The spec's name of an engine step. */
    SpecStep specStep(Step s) {
        String action = s.action().specName();
        return switch (s.action()) {
            case COMPLETE_CHECKPOINT, TRIGGER_CHECKPOINT, ABORT_CHECKPOINT -> new SpecStep(action, null, null, (int) s.checkpointId());
            case FAIL_AND_RESTORE -> new SpecStep(action, null, null, 0);
            case INJECT_BARRIER -> new SpecStep(action, specName(s.task()), null, (int) s.checkpointId());
            case EMIT_RECORD, SEND_END_OF_PARTITION -> new SpecStep(action, specName(s.task()), null, 0);
            case PROCESS_RECORD, RECEIVE_BARRIER, RECEIVE_CANCEL_BARRIER, RECEIVE_END_OF_PARTITION, PRIORITIZE_BARRIER ->
                    new SpecStep(action, specName(s.task()), edgeOf(graph.inputs(s.task()).get(s.input())), 0);
            default -> new SpecStep(action, specName(s.task()), null, (int) s.checkpointId());
        };
    }

    /**
     * Whether abort notification {@code s} abandons the checkpoint its task handles: the one case
     * that is the spec's {@code NotifyCheckpointAborted} step. Of a checkpoint the task has not
     * seen, the engine only remembers the abort and acts at its first barrier; of one it has gone
     * past, it changes nothing (docs/vocabulary.md).
     */
    boolean abandons(Step s) {
        return runtime.operatorTask(s.task()).handlerState().checkpointId() == s.checkpointId();
    }

    Map<String, String> components() {
        Map<String, String> c = new TreeMap<>();
        for (String s : graph.sourceTasks()) {
            c.put("offset[" + specName(s) + "]", Long.toString(runtime.sourceTask(s).offset()));
            c.put("ended[" + specName(s) + "]", Boolean.toString(runtime.sourceTask(s).ended()));
        }
        for (PhysicalGraph.ChannelSpec ch : graph.channels()) {
            c.put("chan[" + edgeOf(ch) + "]", messages(runtime.channel(ch.id()).contents()));
        }
        for (String t : graph.operatorTasks()) {
            OperatorTask o = runtime.operatorTask(t);
            String name = specName(t);
            c.put("processed[" + name + "]", bag(o.processed()));
            c.put("handling[" + name + "]", Long.toString(o.handlerState().checkpointId()));
            c.put("current[" + name + "]", Long.toString(Math.max(discardedUpTo, o.handlerState().latestCheckpointId())));
            List<PhysicalGraph.ChannelSpec> inputs = graph.inputs(t);
            List<String> endedInputs = new ArrayList<>();
            for (int i = 0; i < inputs.size(); i++) {
                if (o.inputEnded(i)) {
                    endedInputs.add(edgeOf(inputs.get(i)));
                }
            }
            c.put("endedInputs[" + name + "]", Canon.edges(endedInputs));
            if (aligned) {
                List<String> blocked = new ArrayList<>();
                for (int i = 0; i < inputs.size(); i++) {
                    if (o.isBlocked(i)) {
                        blocked.add(edgeOf(inputs.get(i)));
                    }
                }
                c.put("arrived[" + name + "]", Canon.edges(blocked));
            }
            if (alternating) {
                List<String> arrived = new ArrayList<>();
                for (int i = 0; i < inputs.size(); i++) {
                    if (o.handlerState().arrived(i)) {
                        arrived.add(edgeOf(inputs.get(i)));
                    }
                }
                c.put("arrived[" + name + "]", Canon.edges(arrived));
                c.put("unalignedAt[" + name + "]", Long.toString(o.handlerState().unalignedCheckpointId()));
            }
        }
        if (alternating) {
            for (int id = 1; id <= checkpoints; id++) {
                List<String> switched = new ArrayList<>();
                runtime.coordinator().switchedTasks(id).forEach(t -> switched.add(specName(t)));
                c.put("switchedAt[" + id + "]", Canon.names(switched));
            }
        }
        if (sinkDirectory != null) {
            sink(c);
        }
        c.put("latest", Long.toString(runtime.coordinator().latestCompleted().map(CompletedCheckpoint::id).orElse(0L)));
        Map<Long, CompletedCheckpoint> done = new HashMap<>();
        runtime.completedCheckpoints().forEach(cp -> done.put(cp.id(), cp));
        for (int id = 1; id <= checkpoints; id++) {
            String status = runtime.coordinator().status(id).name().toLowerCase(java.util.Locale.ROOT);
            c.put("ckpt[" + id + "]", status);
            CompletedCheckpoint cp = done.get((long) id);
            if (status.equals("completed") && cp != null) {
                Map<String, Long> offsets = new TreeMap<>();
                cp.sourceOffsets().forEach((s, n) -> offsets.put(specName(s), n));
                c.put("snapOffset[" + id + "]", Canon.offsets(offsets));
                for (var e : cp.taskSnapshots().entrySet()) {
                    TaskSnapshot snap = e.getValue();
                    c.put("snapProcessed[" + id + "][" + specName(e.getKey()) + "]", bag(snap.processed()));
                }
                for (PhysicalGraph.ChannelSpec ch : graph.channels()) {
                    List<Record> persisted = cp.channelState().getOrDefault(ch.id(), List.of());
                    List<String> m = new ArrayList<>();
                    persisted.forEach(r -> m.add(record(r.id())));
                    c.put("snapChan[" + id + "][" + edgeOf(ch) + "]", String.join(" ", m));
                }
            }
        }
        return c;
    }

    /**
     * The transactional sinks' components: the open transaction is the temp file of the task
     * that holds no pending transaction, the pending ones are {@code pendingTransactions()}, what
     * is not committed yet every temp file of the task (a restore deletes the leftovers), and the
     * committed output the part files ({@code OperatorTask.committedOutput()}).
     */
    private void sink(Map<String, String> c) {
        Map<String, Integer> committed = new HashMap<>();
        for (String t : graph.operatorTasks()) {
            OperatorTask o = runtime.operatorTask(t);
            if (!(o.operator() instanceof TransactionalFileSink sink)) {
                continue;
            }
            String name = specName(t);
            java.util.Set<String> pendingTxns = new java.util.HashSet<>(sink.pendingTransactions().values());
            String prefix = SinkFiles.TEMP_PREFIX + SinkFiles.fileSafe(t) + "-";
            Map<String, Integer> open = new HashMap<>();
            Map<String, Integer> uncommitted = new HashMap<>();
            for (String f : sinkDirectory.list()) {
                if (!SinkFiles.isTemp(f) || !f.startsWith(prefix)) {
                    continue;
                }
                String txn = f.substring(prefix.length(), f.length() - SinkFiles.TEMP_SUFFIX.length());
                for (Record r : SinkFiles.parse(f, sinkDirectory.read(f))) {
                    uncommitted.merge(record(r.id()), 1, Integer::sum);
                    if (!pendingTxns.contains(txn)) {
                        open.merge(record(r.id()), 1, Integer::sum);
                    }
                }
            }
            if (!o.ended()) {
                c.put("txnOpen[" + name + "]", Canon.bag(open));
                List<String> keys = new ArrayList<>();
                sink.pendingTransactions().keySet().forEach(k -> keys.add(Long.toString(k)));
                c.put("txnPending[" + name + "]", Canon.names(keys));
            }
            c.put("uncommitted[" + name + "]", Canon.bag(uncommitted));
            o.committedOutput().forEach((id, n) -> committed.merge(record(id), n, Integer::sum));
        }
        c.put("committed", Canon.bag(committed));
    }

    /**
     * Whether completion notification {@code s} commits something: a pending transaction up to
     * its checkpoint. One that commits nothing is a stuttering step of the spec (its state does
     * not change), which the replay does not follow.
     */
    boolean commits(Step s) {
        return runtime.operatorTask(s.task()).operator() instanceof TransactionalFileSink sink
                && sink.pendingTransactions().keySet().stream().anyMatch(k -> k <= s.checkpointId());
    }

    private static String record(RecordId id) {
        return Canon.record(specName(id.source()), id.offset());
    }

    private static String bag(Map<RecordId, Integer> ledger) {
        Map<String, Integer> counts = new HashMap<>();
        ledger.forEach((id, n) -> counts.merge(record(id), n, Integer::sum));
        return Canon.bag(counts);
    }

    static String messages(List<Message> contents) {
        List<String> out = new ArrayList<>();
        for (Message m : contents) {
            if (m instanceof Record r) {
                out.add(record(r.id()));
            } else if (m instanceof Barrier b) {
                out.add((b.aligned() ? "B" : "U") + b.checkpointId());
            } else if (m instanceof CancelBarrier x) {
                out.add("X" + x.checkpointId());
            } else if (m instanceof EndOfPartition) {
                out.add("EOP");
            } else {
                out.add(m.toString());
            }
        }
        return String.join(" ", out);
    }
}
