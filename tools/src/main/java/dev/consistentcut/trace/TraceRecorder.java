// Longer than 500 lines: one rendering per spec action of the trace format, kept in one place so the format reads whole.
package dev.consistentcut.trace;

import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.barrier.DeliveryGuarantee;
import dev.consistentcut.channel.Channel;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.PhysicalGraph;
import dev.consistentcut.graph.PhysicalGraph.ChannelSpec;
import dev.consistentcut.message.Barrier;
import dev.consistentcut.message.CancelBarrier;
import dev.consistentcut.message.EndOfPartition;
import dev.consistentcut.message.Message;
import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import dev.consistentcut.task.RunEvent;
import dev.consistentcut.task.RunObserver;
import dev.consistentcut.text.Json;
import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * Records a run of the engine as a trace in the specification's vocabulary: one JSON
 * object per line (NDJSON). Line 1 is the header: the topology as the spec's constants see it
 * (sources, operators, edges, records per source, {@code Route} for every node and record,
 * capacity, {@code MaxConcurrent}) and the mode. Every further line is one spec action, named as
 * the action, with its parameters and the values the step left in the variables it changed
 * (docs/trace-validation.md lists them). {@link TraceToTla} turns the file into a TLA+ module and
 * {@link TraceValidator} lets TLC decide whether the spec allows it.
 *
 * <p>Use: {@code RunOptions.builder().observer(recorder).onCheckpoint(recorder::checkpointCompleted)},
 * in the threaded runtime with {@code .stepOrdering(StepOrdering.oneAtATime())}, build the runtime, {@link #attach} its state view ({@link RuntimeViews}), run, {@link #close}.
 * The recorder is a {@link RunObserver}: each {@link RunEvent} becomes one line.
 *
 * <p><b>Threading contract.</b> {@link #on}, {@link #onAction} and {@link #checkpointCompleted}
 * may be called from any thread; they are synchronized, so lines never interleave. The trace is a
 * valid linearization only if each step and its event are atomic with respect to other steps: the
 * simulation runs one step at a time; the threaded runtime holds the {@code StepOrdering} it was given
 * around each step: {@code StepOrdering.oneAtATime()} for this recorder. {@link #attach} must happen before the run starts and
 * {@link #close} after it ended. Memory consistency: what a thread did before its {@link #on}
 * call happens-before anything another thread does after a later {@link #on} call.
 */
public final class TraceRecorder implements RunObserver, Closeable {

    /** Identifies a trace file; the header's {@code trace} field. */
    public static final String FORMAT = "consistent-cut-trace";
    public static final int VERSION = 1;

    /**
     * The last event of a run that stopped because no step of the engine was enabled any more
     * (not cut short by a step limit): no spec action, a claim about the state after the last
     * step, which the trace spec checks (no step that moves data, barriers or checkpoints is
     * enabled there either). Without it a run that stalls would be accepted as a prefix. Field
     * {@code finished}: the run ended with every source exhausted and nothing in flight.
     */
    public static final String RUN_ENDED = "RunEnded";

    /** Records {@link #RUN_ENDED}; call once, after the run, before {@link #close}. */
    public void runEnded(boolean finished) {
        record(RUN_ENDED, () -> {
            if (view == null) {
                throw new IllegalStateException("trace " + name + ": " + RUN_ENDED + " happened before a state view was attached");
            }
            return "{\"event\":\"" + RUN_ENDED + "\",\"finished\":" + finished + "}";
        });
    }

    /** What the recorder reads from the running engine after each step. */
    public interface StateView {
        Channel channel(String channelId);

        /** The spec's {@code offset[s]} of source task {@code sourceTask}. */
        long sourceOffset(String sourceTask);

        /** The spec's {@code processed[t]} of operator task {@code operatorTask}. */
        Map<RecordId, Integer> processed(String operatorTask);

        /**
         * The committed output of transactional sink {@code sinkTask} (the spec's
         * {@code committed} is the bag sum over the sinks). Default: none.
         */
        default Map<RecordId, Integer> committedOutput(String sinkTask) {
            return Map.of();
        }
    }

    private final Writer out;
    /** Set by {@link #open}: the trace file, and the part file written until {@link #close} renames it. */
    private Path file;
    private Path part;
    private final String name;
    private final PhysicalGraph graph;
    private final Map<Long, CompletedCheckpoint> completed = new java.util.concurrent.ConcurrentHashMap<>();
    /**
     * Alternating mode (spec/traces/TraceAlternating.tla): barriers in channels carry their alignment
     * type ({@code {"ckpt": c, "aligned": b}}), {@code ReceiveBarrier} the received one's, and
     * {@code TimeoutAlignment} events are recorded.
     */
    private final boolean alternating;
    private volatile StateView view;
    private final java.util.concurrent.atomic.AtomicLong events = new java.util.concurrent.atomic.AtomicLong();
    /**
     * A causal trace: each thread's events go to its process's local log, stamped with
     * its vector clock; {@link #close} merges the logs into one order consistent with
     * happens-before. Null: one order as the calls come (the simulation; the trace lock).
     */
    private final dev.consistentcut.causal.VectorClocks clocks;
    /** Causal traces: the seed of the merge's choice among the events that may come next. */
    private final long mergeSeed;
    /** The transactional sinks: their events, and restores, record the committed output. */
    private final List<String> sinks;
    private boolean closed;

    /**
     * Writes the header to {@code out} at once.
     *
     * @param name where the trace goes, for error messages
     * @param mode the barrier mode the run uses; the spec it must follow is the aligned one unless
     *     barriers overtake
     * @param runtime {@code simulation} or {@code threads}, for the reader
     * @param maxConcurrent checkpoints in flight at once (the spec's {@code MaxConcurrent})
     */
    public TraceRecorder(Writer out, String name, JobGraph job, BarrierMode mode, String runtime, int maxConcurrent) {
        this(out, name, job, mode, runtime, maxConcurrent, false, false);
    }

    /**
     * As above, for a run with the lifecycle options: {@code abortsReachTasks} (the spec's
     * {@code AbortsReachTasks}: aborted checkpoints leave flight at once and tasks are told) and
     * {@code endOfInput} (the spec's {@code EndOfInput}: sources end their partitions), both
     * recorded in the header so that the trace spec sets the constants the run used.
     */
    public TraceRecorder(Writer out, String name, JobGraph job, BarrierMode mode, String runtime, int maxConcurrent,
                         boolean abortsReachTasks, boolean endOfInput) {
        this(out, name, job, mode, runtime, maxConcurrent, abortsReachTasks, endOfInput, null, 0);
    }

    /**
     * As above, for a causal trace of the threaded runtime when {@code clocks} is not null: the
     * events' processes and clocks come from {@code clocks} (the runtime carries them:
     * {@code ThreadedRuntime.recordCausally}), each event records only what its task sees (no
     * {@code channels}, except after a restore, when every task is stopped), and {@link #close}
     * writes the events merged by their clocks; {@code mergeSeed} picks among the events that may
     * come next (every choice is an order consistent with happens-before).
     */
    public TraceRecorder(Writer out, String name, JobGraph job, BarrierMode mode, String runtime, int maxConcurrent,
                         boolean abortsReachTasks, boolean endOfInput, dev.consistentcut.causal.VectorClocks clocks,
                         long mergeSeed) {
        this.clocks = clocks;
        this.mergeSeed = mergeSeed;
        this.out = Objects.requireNonNull(out, "out");
        this.name = Objects.requireNonNull(name, "name");
        this.graph = PhysicalGraph.of(Objects.requireNonNull(job, "job"));
        this.alternating = mode.alignedTimeoutMillis() >= 0;
        if (maxConcurrent < 1) {
            throw new IllegalArgumentException("maxConcurrent must be >= 1, got " + maxConcurrent);
        }
        this.sinks = graph.operatorTasks().stream().filter(t -> graph.job().node(graph.task(t).node()).operatorFactory()
                .get() instanceof dev.consistentcut.sink.TransactionalSink).toList();
        write(header(mode, runtime, maxConcurrent, abortsReachTasks, endOfInput));
    }

    /** A recorder writing to {@code file} (created or truncated), for a run without the lifecycle options. */
    public static TraceRecorder open(Path file, JobGraph job, BarrierMode mode, String runtime, int maxConcurrent) {
        return open(file, job, mode, runtime, maxConcurrent, false, false);
    }

    /** A recorder writing to {@code file} (created or truncated); the lifecycle options as in the constructor. */
    public static TraceRecorder open(Path file, JobGraph job, BarrierMode mode, String runtime, int maxConcurrent,
                                     boolean abortsReachTasks, boolean endOfInput) {
        return open(file, job, mode, runtime, maxConcurrent, abortsReachTasks, endOfInput, null, 0);
    }

    /** A recorder writing to {@code file}; a causal trace when {@code clocks} is not null (see the constructor). */
    public static TraceRecorder open(Path file, JobGraph job, BarrierMode mode, String runtime, int maxConcurrent,
                                     boolean abortsReachTasks, boolean endOfInput,
                                     dev.consistentcut.causal.VectorClocks clocks, long mergeSeed) {
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            // Written to FILE.part and renamed to FILE when closed after a whole run: a recording
            // that fails (an engine error, a causal merge that finds no order) leaves no trace file,
            // neither an empty or half-written one nor an older one, that a later step would misread.
            Files.deleteIfExists(file);
            Path part = file.resolveSibling(file.getFileName() + ".part");
            BufferedWriter w = Files.newBufferedWriter(part, StandardCharsets.UTF_8);
            TraceRecorder r;
            try {
                r = new TraceRecorder(w, file.toString(), job, mode, runtime, maxConcurrent, abortsReachTasks, endOfInput,
                        clocks, mergeSeed);
            } catch (RuntimeException e) {
                w.close();
                Files.deleteIfExists(part);
                throw e;
            }
            r.part = part;
            r.file = file;
            return r;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write trace " + file + ": " + e.getMessage(), e);
        }
    }

    /** Gives the recorder the running engine's state; call once, before the run. */
    public synchronized void attach(StateView view) {
        if (this.view != null) {
            throw new IllegalStateException("trace " + name + ": a state view is already attached");
        }
        this.view = Objects.requireNonNull(view, "view");
    }

    /**
     * The engine completed {@code cp}: what a {@code CompleteCheckpoint} given to {@link #onAction}
     * by its id records (the engine's own event carries the checkpoint).
     */
    public synchronized void checkpointCompleted(CompletedCheckpoint cp) {
        completed.put(cp.id(), cp);
    }

    /** Events written so far (the header not counted). */
    public long events() {
        return events.get();
    }

    /**
     * Records one event. Causal trace: on the calling thread, into its process's log, without a
     * lock (the line reads only what the task itself changed). Otherwise under this recorder's lock.
     */
    @Override
    public void on(RunEvent event) {
        record(event.name(), () -> line(event));
    }

    /**
     * Records the event {@code action} with the parameters of the engine's former untyped events
     * (keys as the trace fields, {@code docs/trace-validation.md}), for callers that build events
     * by hand; each is checked and turned into its {@link RunEvent}.
     *
     * @throws IllegalArgumentException naming the action and the parameter missing or of the wrong type
     */
    public void onAction(String action, Map<String, Object> params) {
        if (action.equals(RUN_ENDED)) {
            if (!(params.get("finished") instanceof Boolean finished)) {
                throw new IllegalArgumentException("trace " + name + ": " + action + " needs parameter 'finished' as"
                        + " a boolean, got " + params);
            }
            runEnded(finished);
            return;
        }
        on(new ActionMaps(name, alternating, completed::remove).event(action, params));
    }

    private void record(String action, java.util.function.Supplier<String> line) {
        if (clocks != null) {
            dev.consistentcut.causal.VectorClocks.Proc p = clocks.current();
            if (p == null) {
                throw new IllegalStateException("trace " + name + ": " + action + " on a thread bound to no process of the"
                        + " causal trace (" + Thread.currentThread().getName() + ")");
            }
            p.event(line.get());
            events.incrementAndGet();
            return;
        }
        synchronized (this) {
            write(line.get());
            events.incrementAndGet();
        }
    }

    /** The event's line: its name, its parameters, the values the step left in the variables it changed. */
    private String line(RunEvent event) {
        String action = event.name();
        if (view == null) {
            throw new IllegalStateException("trace " + name + ": " + action + " happened before a state view was attached");
        }
        StringBuilder b = new StringBuilder("{\"event\":");
        Json.quote(b, action);
        Set<String> touched = new LinkedHashSet<>();
        if (event instanceof RunEvent.TriggerCheckpoint e) {
            b.append(",\"checkpoint\":").append(e.checkpoint());
            if (e.savepoint()) {
                b.append(",\"savepoint\":true");
            }
        } else if (event instanceof RunEvent.TimeoutAlignment e) {
            task(b, e.task());
            b.append(",\"checkpoint\":").append(e.checkpoint());
            if (e.snapshot() != null) {
                b.append(",\"snapshot\":");
                bag(b, e.snapshot());
            }
            // What the switch persisted: passive, the records each prioritized barrier jumped
            // over (input channels); active, what the overtaking barrier jumped over (outputs).
            b.append(",\"persisted\":");
            persisted(b, action, merged(e.prioritized(), e.overtaken()));
            graph.inputs(e.task()).forEach(c -> touched.add(c.id()));
            graph.outputs(e.task()).forEach(c -> touched.add(c.id()));
        } else if (event instanceof RunEvent.PrioritizeBarrier e) {
            // A barrier queued behind records since the task switched: it jumps to the head
            // of its channel; "persisted" holds what it jumped over (spec: PrioritizeBarrier).
            taskAndChannel(b, e.task(), e.channel());
            b.append(",\"checkpoint\":").append(e.checkpoint());
            b.append(",\"persisted\":");
            persisted(b, action, merged(e.prioritized(), null));
            touched.add(e.channel());
        } else if (event instanceof RunEvent.AbortCheckpoint e) {
            b.append(",\"checkpoint\":").append(e.checkpoint());
            if (e.declinedBy() != null) { // the engine's DeclineCheckpoint
                b.append(",\"declinedBy\":");
                Json.quote(b, e.declinedBy());
            }
        } else if (event instanceof RunEvent.NotifyCheckpointAborted e) {
            task(b, e.task());
            b.append(",\"checkpoint\":").append(e.checkpoint());
            ids(b, "abandoned", e.abandoned());
            b.append(",\"remembered\":").append(e.remembered());
            graph.outputs(e.task()).forEach(c -> touched.add(c.id()));
        } else if (event instanceof RunEvent.SendEndOfPartition e) {
            task(b, e.task());
            b.append(",\"offset\":").append(e.offset());
            graph.outputs(e.task()).forEach(c -> touched.add(c.id()));
        } else if (event instanceof RunEvent.ReceiveCancelBarrier e) {
            taskAndChannel(b, e.task(), e.channel());
            touched.add(e.channel());
            b.append(",\"checkpoint\":").append(e.checkpoint());
            ids(b, "abandoned", e.abandoned());
            graph.outputs(e.task()).forEach(c -> touched.add(c.id()));
        } else if (event instanceof RunEvent.ReceiveEndOfPartition e) {
            taskAndChannel(b, e.task(), e.channel());
            touched.add(e.channel());
            b.append(",\"ended\":").append(e.ended());
            if (e.snapshot() != null) {
                b.append(",\"checkpoint\":").append(e.checkpoint());
                b.append(",\"snapshot\":");
                bag(b, e.snapshot());
            }
            if (sinks.contains(e.task())) {
                output(b);
            }
            graph.outputs(e.task()).forEach(c -> touched.add(c.id()));
        } else if (event instanceof RunEvent.EmitRecord e) {
            task(b, e.task());
            b.append(",\"record\":");
            record(b, e.record());
            b.append(",\"offset\":").append(view.sourceOffset(e.task()));
            touched.addAll(routeChannels(e.task(), e.record()));
        } else if (event instanceof RunEvent.InjectBarrier e) {
            task(b, e.task());
            b.append(",\"checkpoint\":").append(e.checkpoint());
            b.append(",\"offset\":").append(e.offset());
            b.append(",\"persisted\":");
            persisted(b, action, e.overtaken());
            graph.outputs(e.task()).forEach(c -> touched.add(c.id()));
        } else if (event instanceof RunEvent.ProcessRecord e) {
            taskAndChannel(b, e.task(), e.channel());
            touched.add(e.channel());
            b.append(",\"record\":");
            record(b, e.record());
            b.append(",\"persisted\":").append(e.persisted());
            touched.addAll(routeChannels(e.task(), e.record()));
        } else if (event instanceof RunEvent.ReceiveBarrier e) {
            receiveBarrier(b, e, touched);
        } else if (event instanceof RunEvent.CompleteCheckpoint e) {
            completeCheckpoint(b, e.completed());
        } else if (event instanceof RunEvent.NotifyCheckpointComplete e) {
            task(b, e.task());
            b.append(",\"checkpoint\":").append(e.checkpoint());
            ids(b, "committed", e.committed());
            output(b);
        } else if (event instanceof RunEvent.FailAndRestore e) {
            b.append(",\"restored\":").append(e.restored());
            if (!sinks.isEmpty()) {
                output(b); // after the sinks' re-commit
            }
            b.append(",\"offsets\":");
            pairs(b, graph.sourceTasks(), s -> b.append(view.sourceOffset(s)));
            b.append(",\"processed\":");
            pairs(b, graph.operatorTasks(), t -> bag(b, view.processed(t)));
            graph.channels().forEach(c -> touched.add(c.id()));
        } else {
            throw new IllegalArgumentException("trace " + name + ": '" + action + "' is no action of the specification");
        }
        // Every step that moves messages records the channels it touched, as it left them.
        // (NotifyCheckpointComplete moves none: its "channels" is empty.) A causal trace's task
        // cannot see its channels' other end, which races with it: only a restore (every task
        // stopped) records them; the trace spec fills in the rest from the spec.
        boolean seen = clocks == null || event instanceof RunEvent.FailAndRestore;
        if (!action.endsWith("Checkpoint") && seen) {
            b.append(",\"channels\":");
            channelPairs(b, List.copyOf(touched), c -> elements(b, view.channel(c).contents()));
        }
        return b.append('}').toString();
    }

    private void receiveBarrier(StringBuilder b, RunEvent.ReceiveBarrier e, Set<String> touched) {
        taskAndChannel(b, e.task(), e.channel());
        touched.add(e.channel());
        b.append(",\"checkpoint\":").append(e.checkpoint());
        if (alternating) {
            b.append(",\"aligned\":").append(e.aligned());
        }
        ids(b, "abandoned", e.abandoned());
        if (e.snapshot() != null) {
            b.append(",\"snapshot\":");
            bag(b, e.snapshot());
        }
        if (e.overtaken() != null || !e.prioritized().isEmpty()) {
            // A switch: what the barrier overtook on the outputs and what the pending
            // inputs' prioritized barriers jumped over.
            b.append(",\"persisted\":");
            persisted(b, e.name(), merged(e.prioritized(), e.overtaken()));
        }
        if (!e.prioritized().isEmpty()) {
            graph.inputs(e.task()).forEach(c -> touched.add(c.id()));
        }
        if (sinks.contains(e.task())) {
            output(b); // a sink's snapshot pre-commits and must not commit
        }
        graph.outputs(e.task()).forEach(c -> touched.add(c.id()));
    }

    private void completeCheckpoint(StringBuilder b, CompletedCheckpoint cp) {
        completed.remove(cp.id()); // told twice when the run also passes checkpointCompleted
        b.append(",\"checkpoint\":").append(cp.id());
        b.append(",\"offsets\":");
        // A source missing from the checkpoint is left out: the spec then sees another domain.
        pairs(b, graph.sourceTasks().stream().filter(cp.sourceOffsets()::containsKey).toList(),
                s -> b.append(cp.sourceOffsets().get(s)));
        b.append(",\"processed\":");
        List<String> snapshotted = graph.operatorTasks().stream().filter(cp.taskSnapshots()::containsKey).toList();
        pairs(b, snapshotted, t -> bag(b, cp.taskSnapshots().get(t).processed()));
        b.append(",\"channelState\":");
        List<String> persisted = graph.channels().stream().map(ChannelSpec::id)
                .filter(cp.channelState()::containsKey).toList();
        channelPairs(b, persisted, c -> elements(b, cp.channelState().get(c)));
    }

    private static void task(StringBuilder b, String task) {
        b.append(",\"task\":");
        Json.quote(b, task);
    }

    private void taskAndChannel(StringBuilder b, String task, String channel) {
        task(b, task);
        b.append(",\"channel\":");
        edge(b, channel);
    }

    /** A list of checkpoint ids as field {@code field}. */
    private static void ids(StringBuilder b, String field, List<Long> ids) {
        b.append(",\"").append(field).append("\":[");
        for (int i = 0; i < ids.size(); i++) {
            b.append(i == 0 ? "" : ",").append(ids.get(i).longValue());
        }
        b.append(']');
    }

    /**
     * Ends the trace: a causal trace's logs are merged and written; a trace opened on a file
     * ({@link #open}) is renamed from its {@code .part} file to the file only now. If that fails
     * (a merge that finds no order, an I/O error), the part file is deleted and the error thrown.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        try {
            if (clocks != null) {
                writeMerged();
            }
            closed = true;
            out.close();
            if (part != null) {
                try {
                    Files.move(part, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                } catch (java.nio.file.AtomicMoveNotSupportedException e) {
                    Files.move(part, file, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        } catch (IOException e) {
            discard();
            throw new UncheckedIOException("trace " + name + ": " + e.getMessage(), e);
        } catch (RuntimeException | Error e) {
            discard();
            throw e;
        }
    }

    /**
     * Abandons the trace of a run that failed: nothing more is written, and a trace opened on a
     * file leaves none (its part file is deleted). Errors while cleaning up are suppressed.
     */
    public synchronized void discard() {
        closed = true;
        try {
            out.close();
        } catch (IOException ignored) {
            // nothing written is kept
        }
        if (part != null) {
            try {
                Files.deleteIfExists(part);
            } catch (IOException ignored) {
                // a stray .part file is never read as a trace
            }
        }
    }

    /**
     * Causal trace: the processes' logs merged by their clocks (every task has stopped), each
     * event with its process {@code p} and clock {@code vc} (components in the header's
     * {@code processes} order).
     */
    private void writeMerged() {
        java.util.Random random = new java.util.Random(mergeSeed);
        for (dev.consistentcut.causal.VectorClocks.Merged m : clocks.merge(random::nextInt)) {
            StringBuilder b = new StringBuilder(m.line().substring(0, m.line().length() - 1));
            b.append(",\"p\":");
            Json.quote(b, m.process());
            b.append(",\"vc\":[");
            for (int k = 0; k < m.vc().length; k++) {
                b.append(k == 0 ? "" : ",").append(m.vc()[k]);
            }
            write(b.append("]}").toString());
        }
    }

    // ------------------------------------------------------------------ the header

    private String header(BarrierMode mode, String runtime, int maxConcurrent, boolean abortsReachTasks, boolean endOfInput) {
        StringBuilder b = new StringBuilder("{\"trace\":");
        Json.quote(b, FORMAT).append(",\"version\":").append(VERSION);
        b.append(",\"mode\":");
        // The spec the trace must follow: AtLeastOnceCheckpoint for the shipped at-least-once mode,
        // else UnalignedCheckpoint if barriers overtake, AlignedCheckpoint otherwise (broken twins too).
        Json.quote(b, mode.alignedTimeoutMillis() >= 0 ? "alternating" : mode.overtaking() ? "unaligned"
                : mode.deliveryGuarantee() == DeliveryGuarantee.AT_LEAST_ONCE ? "at-least-once" : "aligned");
        b.append(",\"modeName\":");
        Json.quote(b, mode.name());
        b.append(",\"runtime\":");
        Json.quote(b, runtime);
        b.append(",\"sources\":");
        strings(b, graph.sourceTasks());
        b.append(",\"operators\":");
        strings(b, graph.operatorTasks());
        b.append(",\"edges\":[");
        String sep = "";
        for (ChannelSpec c : graph.channels()) {
            b.append(sep);
            edge(b, c.id());
            sep = ",";
        }
        b.append("],\"records\":");
        pairs(b, graph.sourceTasks(), s -> b.append(graph.log(s).length()));
        int capacity = graph.channels().stream().mapToInt(ChannelSpec::capacity).max().orElse(1);
        b.append(",\"capacity\":").append(capacity);
        b.append(",\"maxConcurrent\":").append(mode.oneInFlight() ? 1 : maxConcurrent);
        b.append(",\"abortsReachTasks\":").append(abortsReachTasks);
        b.append(",\"endOfInput\":").append(endOfInput);
        // The job's sinks are two-phase-commit sinks (the spec's TransactionalSink).
        b.append(",\"transactionalSink\":").append(!sinks.isEmpty());
        if (clocks != null) { // a causal trace, merged from these processes' logs by vector clocks
            b.append(",\"causal\":true,\"processes\":");
            strings(b, clocks.processes());
        }
        // Route(n, r) for every node n and record r: per <<node, source>>, per offset, the out-edges.
        b.append(",\"routes\":[");
        sep = "";
        for (PhysicalGraph.TaskSpec n : graph.tasks()) {
            for (String s : graph.sourceTasks()) {
                if (graph.sourceTasks().contains(n.id()) && !n.id().equals(s)) {
                    continue; // a source routes only its own records
                }
                b.append(sep).append("[[");
                Json.quote(b, n.id()).append(',');
                Json.quote(b, s).append("],[");
                long length = graph.log(s).length();
                for (long off = 0; off < length; off++) {
                    b.append(off == 0 ? "[" : ",[");
                    String edgeSep = "";
                    for (String c : routeChannels(n.id(), new RecordId(s, off))) {
                        b.append(edgeSep);
                        edge(b, c);
                        edgeSep = ",";
                    }
                    b.append(']');
                }
                b.append("]]");
                sep = ",";
            }
        }
        return b.append("]}").toString();
    }

    // ------------------------------------------------------------------ pieces

    /** The channels record {@code r} takes out of {@code task}: the spec's {@code Route(task, r)}. */
    private List<String> routeChannels(String task, RecordId r) {
        long key = graph.log(r.source()).entryAt(r.offset()).key();
        List<ChannelSpec> outputs = graph.outputs(task);
        List<String> ids = new ArrayList<>();
        for (int o : graph.route(task, key)) {
            ids.add(outputs.get(o).id());
        }
        return ids;
    }

    private void edge(StringBuilder b, String channelId) {
        ChannelSpec c = graph.channel(channelId);
        b.append('[');
        Json.quote(b, c.sender()).append(',');
        Json.quote(b, c.receiver()).append(']');
    }

    private static void record(StringBuilder b, RecordId r) {
        b.append("{\"src\":");
        Json.quote(b, r.source()).append(",\"off\":").append(r.offset()).append('}');
    }

    private void elements(StringBuilder b, List<? extends Message> elements) {
        b.append('[');
        String sep = "";
        for (Message e : elements) {
            b.append(sep);
            if (e instanceof Record r) {
                record(b, r.id());
            } else if (e instanceof Barrier barrier) {
                b.append("{\"ckpt\":").append(barrier.checkpointId());
                if (alternating) {
                    b.append(",\"aligned\":").append(barrier.aligned());
                }
                b.append('}');
            } else if (e instanceof CancelBarrier cancel) {
                b.append("{\"cancel\":").append(cancel.checkpointId()).append('}');
            } else if (e instanceof EndOfPartition) {
                b.append("{\"eop\":true}");
            } else {
                throw new IllegalStateException("no trace form for channel element " + e);
            }
            sep = ",";
        }
        b.append(']');
    }

    /** "output": the committed output of every transactional sink together (the spec's bag {@code committed}), after the step. */
    private void output(StringBuilder b) {
        Map<RecordId, Integer> all = new HashMap<>();
        for (String t : sinks) {
            view.committedOutput(t).forEach((r, n) -> all.merge(r, n, Integer::sum));
        }
        b.append(",\"output\":");
        bag(b, all);
    }

    /** A bag as [[record, count], ...] in record order. */
    private static void bag(StringBuilder b, Map<RecordId, Integer> counts) {
        b.append('[');
        String sep = "";
        for (Map.Entry<RecordId, Integer> e : new TreeMap<>(counts).entrySet()) {
            b.append(sep).append('[');
            record(b, e.getKey());
            b.append(',').append(e.getValue()).append(']');
            sep = ",";
        }
        b.append(']');
    }

    private static void strings(StringBuilder b, List<String> list) {
        b.append('[');
        for (int i = 0; i < list.size(); i++) {
            Json.quote(b.append(i == 0 ? "" : ","), list.get(i));
        }
        b.append(']');
    }

    /** A map as [[key, value], ...]: keys are task ids. */
    private static void pairs(StringBuilder b, List<String> keys, java.util.function.Consumer<String> value) {
        b.append('[');
        for (int i = 0; i < keys.size(); i++) {
            b.append(i == 0 ? "[" : ",[");
            Json.quote(b, keys.get(i)).append(',');
            value.accept(keys.get(i));
            b.append(']');
        }
        b.append(']');
    }

    /** A map as [[edge, value], ...]: keys are channel ids, written as their edge [from, to]. */
    private void channelPairs(StringBuilder b, List<String> channelIds, java.util.function.Consumer<String> value) {
        b.append('[');
        for (int i = 0; i < channelIds.size(); i++) {
            b.append(i == 0 ? "[" : ",[");
            edge(b, channelIds.get(i));
            b.append(',');
            value.accept(channelIds.get(i));
            b.append(']');
        }
        b.append(']');
    }

    /** What a step persisted per channel: {@code prioritized} (inputs) and {@code overtaken} (outputs, may be null) together. */
    private static Map<String, List<Record>> merged(Map<String, List<Record>> prioritized,
                                                    Map<String, List<Record>> overtaken) {
        Map<String, List<Record>> all = new HashMap<>(prioritized);
        if (overtaken != null) {
            all.putAll(overtaken);
        }
        return all;
    }

    /** The records a barrier overtook and persisted, per channel of the job: [[edge, records], ...]. */
    private void persisted(StringBuilder b, String action, Map<String, List<Record>> overtaken) {
        List<String> ids = graph.channels().stream().map(ChannelSpec::id).filter(overtaken::containsKey).toList();
        if (ids.size() != overtaken.size()) {
            throw new IllegalArgumentException("trace " + name + ": " + action + " persisted records in channels"
                    + " that are no channels of the job: " + overtaken.keySet());
        }
        channelPairs(b, ids, c -> elements(b, overtaken.get(c)));
    }

    private void write(String line) {
        if (closed) {
            throw new IllegalStateException("trace " + name + " is closed");
        }
        try {
            out.write(line);
            out.write('\n');
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write trace " + name + ": " + e.getMessage(), e);
        }
    }
}
