package dev.consistentcut.runtime;

import dev.consistentcut.annotation.TestSeam;
import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.channel.BufferEncoding;
import dev.consistentcut.channel.Channel;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.checkpoint.TaskSnapshot;
import dev.consistentcut.graph.NodeKind;
import dev.consistentcut.graph.PhysicalGraph;
import dev.consistentcut.message.RecordId;
import dev.consistentcut.task.CoordinatorGateway;
import dev.consistentcut.task.OperatorTask;
import dev.consistentcut.task.RunObserver;
import dev.consistentcut.task.SourceTask;
import dev.consistentcut.task.Task;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;

/**
 * The physical graph made concrete: one {@link Channel} per channel and one task per task
 * instance, shared by both runtimes. Also the task side of {@code FailAndRestore}. Not
 * thread-safe: the runtime calls it while no task runs.
 */
final class Deployment {

    final PhysicalGraph graph;
    /** By channel id, in the graph's order; unmodifiable, as are the task collections. */
    final Map<String, Channel> channels;
    final List<SourceTask> sources;
    final List<OperatorTask> operators;
    /** By task id, sources and operators in the graph's order. */
    final Map<String, Task> tasks;

    final boolean endOfInput;

    /**
     * @param trackProcessed operators keep the ledger of processed records the invariants read
     * @param endOfInput sources send end of partition once their log is read
     * @param bufferSize records per network buffer: 1 per record, 0 a quarter of each
     *     channel's capacity (four buffers); see {@link #bufferSizeFor}
     * @param bufferEncoding how every channel's buffers carry their records
     * @param materialiser where the operator tasks materialise their changelogs
     * @param uploads where their materialisations write what they merged (the job's store's)
     * @param writer where the operator tasks write each checkpoint's changes before acknowledging
     *     it (OperatorTask: the calling thread, or writer threads while the task goes on)
     */
    Deployment(PhysicalGraph graph, BarrierMode mode, CoordinatorGateway gateway, RunObserver observer,
               boolean trackProcessed, boolean endOfInput, int bufferSize, BufferEncoding bufferEncoding,
               Executor materialiser, dev.consistentcut.checkpoint.MaterialisedUploads uploads, Executor writer) {
        this.endOfInput = endOfInput;
        this.graph = graph;
        Map<String, Channel> channels = new LinkedHashMap<>();
        List<SourceTask> sources = new ArrayList<>();
        List<OperatorTask> operators = new ArrayList<>();
        Map<String, Task> tasks = new LinkedHashMap<>();
        for (PhysicalGraph.ChannelSpec c : graph.channels()) {
            channels.put(c.id(), new Channel(c.id(), c.capacity(), bufferSizeFor(c.capacity(), bufferSize), bufferEncoding));
        }
        Map<String, Channel> readOnly = Collections.unmodifiableMap(channels);
        for (PhysicalGraph.TaskSpec t : graph.tasks()) {
            if (t.kind() == NodeKind.SOURCE) {
                SourceTask s = new SourceTask(t.id(), graph, readOnly, mode, gateway, observer, endOfInput);
                sources.add(s);
                tasks.put(t.id(), s);
            } else {
                OperatorTask o = new OperatorTask(t.id(), graph, readOnly, mode, gateway, observer, trackProcessed,
                        materialiser, uploads, writer);
                operators.add(o);
                tasks.put(t.id(), o);
            }
        }
        this.channels = readOnly;
        this.sources = Collections.unmodifiableList(sources);
        this.operators = Collections.unmodifiableList(operators);
        this.tasks = Collections.unmodifiableMap(tasks);
    }

    /**
     * The task side of {@code FailAndRestore}: every operator gets its state and ledger from
     * {@code checkpoint}, every source its offset, every channel its persisted records; the
     * initial state where {@code checkpoint} is empty.
     */
    void restore(Optional<CompletedCheckpoint> checkpoint) {
        for (OperatorTask o : operators) {
            TaskSnapshot s = null;
            if (checkpoint.isPresent()) {
                s = checkpoint.get().taskSnapshots().get(o.id());
                if (s == null) {
                    throw new IllegalStateException("checkpoint " + checkpoint.get().id() + " has no snapshot of operator " + o.id());
                }
            }
            o.restore(s);
        }
        for (SourceTask s : sources) {
            long offset = 0;
            if (checkpoint.isPresent()) {
                Long recorded = checkpoint.get().sourceOffsets().get(s.id());
                if (recorded == null) {
                    throw new IllegalStateException("checkpoint " + checkpoint.get().id() + " has no offset of source " + s.id());
                }
                offset = recorded;
            }
            s.rewind(offset);
        }
        for (Channel c : channels.values()) {
            c.restore(checkpoint.map(cp -> cp.channelState().getOrDefault(c.id(), List.of())).orElse(List.of()));
        }
    }

    /** The buffer size of a channel of {@code capacity} records: {@code bufferSize}, or for 0 a quarter of the capacity (at least 1). */
    static int bufferSizeFor(int capacity, int bufferSize) {
        return bufferSize > 0 ? bufferSize : Math.max(1, capacity / 4);
    }

    /** Hands every open buffer over (tests; the threaded runtime flushes per task). */
    @TestSeam
    void flushAll() {
        for (Task t : tasks.values()) {
            t.flushOutputs();
        }
    }

    boolean sourcesExhausted() {
        return sources.stream().allMatch(SourceTask::exhausted);
    }

    /** Without end of input: true. With it: every task has ended (sources sent, operators took, every end of partition). */
    boolean allEnded() {
        return !endOfInput || (sources.stream().allMatch(SourceTask::ended)
                && operators.stream().allMatch(OperatorTask::ended));
    }

    /** Every transactional sink has nothing left to commit (true when there is none). */
    boolean sinksSettled() {
        for (OperatorTask o : operators) {
            if (!o.transactionsSettled()) {
                return false;
            }
        }
        return true;
    }

    /** The task ids of the transactional sinks. */
    java.util.Set<String> transactionalSinks() {
        java.util.Set<String> out = new java.util.LinkedHashSet<>();
        for (OperatorTask o : operators) {
            if (o.isTransactional()) {
                out.add(o.id());
            }
        }
        return out;
    }

    /** The committed output of every transactional sink (read while no task runs). */
    Map<String, Map<RecordId, Integer>> committedOutput() {
        Map<String, Map<RecordId, Integer>> out = new LinkedHashMap<>();
        for (OperatorTask o : operators) {
            if (o.isTransactional()) {
                out.put(o.id(), o.committedOutput());
            }
        }
        return out;
    }

    /** Per transactional sink: the checkpoint ids its last restore re-committed (for the trace). */
    Map<String, List<Long>> lastRecommitted() {
        Map<String, List<Long>> out = new LinkedHashMap<>();
        for (OperatorTask o : operators) {
            if (o.isTransactional()) {
                out.put(o.id(), o.lastRecommitted());
            }
        }
        return out;
    }

    boolean channelsEmpty() {
        return channels.values().stream().allMatch(Channel::isEmpty);
    }

    /** Copies of every operator's ledger. */
    Map<String, Map<RecordId, Integer>> ledgers() {
        Map<String, Map<RecordId, Integer>> out = new LinkedHashMap<>();
        for (OperatorTask o : operators) {
            out.put(o.id(), TaskSnapshot.frozen(o.processed())); // not Map.copyOf: see there
        }
        return out;
    }
}
