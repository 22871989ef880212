package dev.consistentcut.trace;

import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.checkpoint.TaskSnapshot;
import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.KeyGroups;
import dev.consistentcut.graph.NodeKind;
import dev.consistentcut.graph.Partitioning;
import dev.consistentcut.graph.PhysicalGraph;
import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import dev.consistentcut.operator.KeyGroupedState;
import dev.consistentcut.runtime.RescaleObserver;
import dev.consistentcut.source.SourceLog;
import dev.consistentcut.text.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Records a rescaled restore ({@code Rescaling.restoreRescaled}) as a rescale trace (NDJSON,
 * header {@code "mode": "rescale"}) for spec/traces/TraceRescaleRestore.tla: the header holds the
 * spec's constants and the checkpoint read (the state the trace starts from), then one event per
 * step with what the engine computed: {@code AssignKeyGroups} (per new task the processed records
 * and the key groups of its state), {@code RedistributeChannelState} (per new channel its stored
 * records, head first), {@code RestoreRescaled} (the offsets the sources rewind to).
 *
 * <p>The spec's vocabulary: a task {@code name#i} is {@code [name, i]} (a source's only task is
 * the spec's {@code Node(s)}), a record {@code {"src": source, "off": n}}, a channel
 * {@code [from, to]}. The spec's key of a record is its key group ({@code log}: per source the key
 * group of each record, in log order), so that the spec's {@code KeyGroupOf} is the identity.
 * The job must have the spec's shape (one route): sources of one task each, HASH edges into a
 * chain of operators (the spec's {@code Ops}, upstream first; the last one keyed, the ones before
 * it stateless), nothing else. The header's {@code processed} and the event's {@code assigned}
 * are the last operator's tasks' (the spec keeps no state of a stateless operator); the event's
 * {@code keyGroups} are every rescaled operator's new tasks'.
 *
 * <p>Threading contract: as {@link RescaleObserver}, one restore on one thread; {@link #close}
 * after it, on the same thread.
 */
public final class RescaleTraceRecorder implements RescaleObserver {

    /** The header's mode: which trace module validates it. */
    public static final String MODE = "rescale";

    private final JobGraph job;
    private final String modeName;
    private final List<String> lines = new ArrayList<>();
    /** The job's operators, upstream first (the spec's Ops), once the checkpoint is read. */
    private List<String> ops;
    /** The last of them, the keyed one (the spec's Last). */
    private String last;

    /**
     * @param job the job at its new parallelism (the graph the checkpoint is restored into)
     * @param modeName the engine's checkpointing mode of the run that took the checkpoint
     */
    public RescaleTraceRecorder(JobGraph job, String modeName) {
        this.job = job;
        this.modeName = modeName;
    }

    @Override
    public void checkpointRead(CompletedCheckpoint checkpoint, Map<String, Integer> oldParallelism) {
        List<String> senders = new ArrayList<>();
        for (JobGraph.Node n : job.nodes()) {
            if (n.kind() == NodeKind.SOURCE) {
                if (n.parallelism() != 1) {
                    throw new IllegalArgumentException("a rescale trace's sources have one task each; " + n.name()
                            + " has " + n.parallelism());
                }
                senders.add(n.name());
            }
        }
        ops = chain(senders);
        last = ops.get(ops.size() - 1);
        for (String op : oldParallelism.keySet()) {
            if (!ops.contains(op)) {
                throw new IllegalArgumentException("a rescale trace's rescaled operators are on its chain " + ops
                        + "; " + op + " is not");
            }
        }
        int m = job.maxParallelism();
        PhysicalGraph graph = PhysicalGraph.of(job);
        StringBuilder h = new StringBuilder("{\"trace\":");
        Json.quote(h, TraceRecorder.FORMAT).append(",\"version\":").append(TraceRecorder.VERSION).append(",\"mode\":");
        Json.quote(h, MODE).append(",\"modeName\":");
        Json.quote(h, modeName).append(",\"maxParallelism\":").append(m).append(",\"senders\":[");
        for (int i = 0; i < senders.size(); i++) {
            Json.quote(h.append(i == 0 ? "" : ","), senders.get(i));
        }
        h.append("],\"ops\":[");
        for (int i = 0; i < ops.size(); i++) {
            Json.quote(h.append(i == 0 ? "" : ","), ops.get(i));
        }
        h.append("],\"oldPar\":[");
        for (int i = 0; i < ops.size(); i++) {
            String op = ops.get(i);
            Json.quote(h.append(i == 0 ? "[" : ",["), op).append(',')
                    .append(oldParallelism.getOrDefault(op, job.node(op).parallelism())).append(']');
        }
        h.append("],\"newPar\":[");
        for (int i = 0; i < ops.size(); i++) {
            Json.quote(h.append(i == 0 ? "[" : ",["), ops.get(i)).append(',').append(job.node(ops.get(i)).parallelism())
                    .append(']');
        }
        h.append("],\"log\":[");
        for (int i = 0; i < senders.size(); i++) {
            Json.quote(h.append(i == 0 ? "[" : ",["), senders.get(i)).append(",[");
            SourceLog log = graph.log(PhysicalGraph.taskId(senders.get(i), 0));
            for (long off = 0; off < log.length(); off++) {
                h.append(off == 0 ? "" : ",").append(KeyGroups.keyGroupOf(log.entryAt(off).key(), m));
            }
            h.append("]]");
        }
        h.append("],\"checkpoint\":{\"id\":").append(checkpoint.id()).append(",\"offsets\":");
        offsets(h, checkpoint.sourceOffsets());
        h.append(",\"processed\":");
        ledgers(h, checkpoint.taskSnapshots(), last);
        h.append(",\"channelState\":");
        channels(h, checkpoint.channelState());
        h.append("}}");
        lines.add(h.toString());
    }

    /**
     * The job's operators in chain order, checking that the job has the spec's shape: the
     * sources' HASH edges into the first operator, one HASH edge from each operator into the
     * next, the last one keyed, nothing else.
     */
    private List<String> chain(List<String> senders) {
        List<String> chain = new ArrayList<>();
        String first = null;
        for (JobGraph.Edge e : job.edges()) {
            if (e.partitioning() != Partitioning.HASH) {
                throw new IllegalArgumentException("a rescale trace's edges are HASH edges; " + e.name() + " is not");
            }
            if (senders.contains(e.from())) {
                if (first != null && !first.equals(e.to())) {
                    throw new IllegalArgumentException("a rescale trace's sources feed one operator; " + e.name()
                            + " leads to another than " + first);
                }
                first = e.to();
            }
        }
        for (String op = first; op != null; ) {
            if (chain.contains(op)) {
                throw new IllegalArgumentException("a rescale trace's job is a chain; " + op + " is on a cycle");
            }
            chain.add(op);
            String from = op;
            List<String> next = job.edges().stream().filter(e -> e.from().equals(from)).map(JobGraph.Edge::to).toList();
            if (next.size() > 1) {
                throw new IllegalArgumentException("a rescale trace's job is a chain; " + op + " feeds " + next);
            }
            op = next.isEmpty() ? null : next.get(0);
        }
        long others = job.nodes().stream().filter(n -> n.kind() != NodeKind.SOURCE).count();
        if (chain.isEmpty() || others != chain.size()
                || job.edges().stream().filter(e -> senders.contains(e.from())).count() != senders.size()
                || job.edges().size() != senders.size() + chain.size() - 1) {
            throw new IllegalArgumentException("a rescale trace's job is its sources into a chain of operators,"
                    + " nothing else; got " + job.edges().stream().map(JobGraph.Edge::name).toList());
        }
        return chain;
    }

    @Override
    public void assignKeyGroups(Map<String, TaskSnapshot> newSnapshots) {
        StringBuilder b = new StringBuilder("{\"event\":\"AssignKeyGroups\",\"assigned\":");
        ledgers(b, newSnapshots, last);
        b.append(",\"keyGroups\":[");
        String sep = "";
        for (Map.Entry<String, TaskSnapshot> e : new TreeMap<>(newSnapshots).entrySet()) {
            b.append(sep).append('[');
            task(b, e.getKey());
            b.append(',').append(keyGroupsOf(e.getKey(), e.getValue().operatorState())).append(']');
            sep = ",";
        }
        lines.add(b.append("]}").toString());
    }

    /**
     * The key groups whose keys task {@code task}'s restored state holds, ascending, as a JSON
     * array: each key group's part of the state ({@link KeyGroupedState#selectKeys}) compared with
     * the part of no key.
     */
    private String keyGroupsOf(String task, byte[] state) {
        KeyGroupedState op = (KeyGroupedState) job.node(task.substring(0, task.lastIndexOf('#'))).operatorFactory().get();
        int m = job.maxParallelism();
        byte[] none = op.selectKeys(state, k -> false);
        StringBuilder out = new StringBuilder("[");
        for (int g = 0; g < m; g++) {
            int group = g;
            if (!Arrays.equals(none, op.selectKeys(state, k -> KeyGroups.keyGroupOf(k, m) == group))) {
                out.append(out.length() == 1 ? "" : ",").append(g);
            }
        }
        return out.append(']').toString();
    }

    @Override
    public void redistributeChannelState(Map<String, List<Record>> channels) {
        StringBuilder b = new StringBuilder("{\"event\":\"RedistributeChannelState\",\"channels\":");
        channels(b, channels);
        lines.add(b.append('}').toString());
    }

    @Override
    public void restoreRescaled(CompletedCheckpoint restored) {
        StringBuilder b = new StringBuilder("{\"event\":\"RestoreRescaled\",\"offsets\":");
        offsets(b, restored.sourceOffsets());
        lines.add(b.append('}').toString());
    }

    /** The events recorded so far. */
    public int events() {
        return Math.max(0, lines.size() - 1);
    }

    /** Writes the trace to {@code file} (via {@code file.part}, renamed when complete). */
    public void close(Path file) {
        if (lines.isEmpty()) {
            throw new IllegalStateException("no rescaled restore was observed: the checkpoint's parallelism is the job's");
        }
        Path part = file.resolveSibling(file.getFileName() + ".part");
        try {
            Files.write(part, lines, StandardCharsets.UTF_8);
            Files.move(part, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the rescale trace " + file + ": " + e.getMessage(), e);
        }
    }

    /** Task id {@code name#i} as the spec's {@code <<name, i>>}. */
    private static void task(StringBuilder b, String task) {
        int hash = task.lastIndexOf('#');
        Json.quote(b.append('['), task.substring(0, hash)).append(',').append(task.substring(hash + 1)).append(']');
    }

    /** A source task's id ({@code s#0}) as the spec's sender ({@code s}). */
    private static String sender(String sourceTask) {
        if (!sourceTask.endsWith("#0")) {
            throw new IllegalArgumentException("a rescale trace's sources have one task each, got " + sourceTask);
        }
        return sourceTask.substring(0, sourceTask.length() - 2);
    }

    private static void record(StringBuilder b, RecordId r) {
        Json.quote(b.append("{\"src\":"), sender(r.source())).append(",\"off\":").append(r.offset()).append('}');
    }

    private static void offsets(StringBuilder b, Map<String, Long> offsets) {
        b.append('[');
        String sep = "";
        for (Map.Entry<String, Long> e : new TreeMap<>(offsets).entrySet()) {
            Json.quote(b.append(sep).append('['), sender(e.getKey())).append(',').append(e.getValue()).append(']');
            sep = ",";
        }
        b.append(']');
    }

    /** Per task of {@code op} (every task if null), its ledger as {@code [[record, count], ...]}, in record order. */
    private static void ledgers(StringBuilder b, Map<String, TaskSnapshot> snapshots, String op) {
        b.append('[');
        String sep = "";
        for (Map.Entry<String, TaskSnapshot> e : new TreeMap<>(snapshots).entrySet()) {
            if (op != null && !e.getKey().startsWith(op + "#")) {
                continue;
            }
            b.append(sep).append('[');
            task(b, e.getKey());
            b.append(",[");
            String rsep = "";
            for (Map.Entry<RecordId, Integer> r : new TreeMap<>(e.getValue().processed()).entrySet()) {
                b.append(rsep).append('[');
                record(b, r.getKey());
                b.append(',').append(r.getValue()).append(']');
                rsep = ",";
            }
            b.append("]]");
            sep = ",";
        }
        b.append(']');
    }

    /** Per channel {@code from->to}, {@code [[from, to], [record, ...]]}, the records head first. */
    private static void channels(StringBuilder b, Map<String, List<Record>> channels) {
        b.append('[');
        String sep = "";
        for (Map.Entry<String, List<Record>> e : new TreeMap<>(channels).entrySet()) {
            String[] ends = e.getKey().split("->");
            b.append(sep).append("[[");
            task(b, ends[0]);
            b.append(',');
            task(b, ends[1]);
            b.append("],[");
            String rsep = "";
            for (Record r : e.getValue()) {
                b.append(rsep);
                record(b, r.id());
                rsep = ",";
            }
            b.append("]]");
            sep = ",";
        }
        b.append(']');
    }
}
