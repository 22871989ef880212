package dev.consistentcut.conformance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The trace of one Flink run (docs/conformance.md): the header, then one NDJSON line per observed
 * event, appended under this object's lock. The MiniCluster runs every task in this JVM, so the
 * order of the lines is a real-time order consistent with causality: a function appends its event
 * before it hands anything on to Flink.
 *
 * <p>The instrumented functions are serialized into the job graph and run in Flink's task threads;
 * they reach the run's log through the one static {@link #current()} (one run at a time per JVM).
 */
public final class TraceLog {

    private static volatile TraceLog current;

    private final List<String> lines = new ArrayList<>();
    private final List<Map<String, Object>> events = new ArrayList<>();
    /** Seeded throws so far: attempt {@code a} may throw once, when this is {@code a}. */
    private final java.util.concurrent.atomic.AtomicInteger thrown = new java.util.concurrent.atomic.AtomicInteger();

    /** The header's source tasks. */
    private final java.util.Set<String> sources = new java.util.HashSet<>();

    TraceLog(Map<String, Object> header) {
        lines.add(json(header));
        for (Object s : (List<?>) header.get("sources")) {
            sources.add((String) s);
        }
    }

    /** Makes {@code log} the log the functions write to (the harness, before it submits the job). */
    static void install(TraceLog log) {
        current = log;
    }

    /** The running job's log. */
    public static TraceLog current() {
        TraceLog log = current;
        if (log == null) {
            throw new IllegalStateException("no conformance run is in progress in this JVM");
        }
        return log;
    }

    /** Appends one event: {@code fields} after {@code event}, {@code task}, {@code attempt}. */
    public void event(String event, String task, int attempt, Object... fields) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("event", event);
        e.put("task", task);
        e.put("attempt", attempt);
        for (int i = 0; i < fields.length; i += 2) {
            e.put((String) fields[i], fields[i + 1]);
        }
        String line = json(e);
        synchronized (this) {
            int at = event.equals("SnapshotState") && sources.contains(task) ? injectionPoint(task, e.get("checkpoint"))
                    : events.size();
            lines.add(at + 1, line);
            events.add(at, e);
        }
    }

    /**
     * Where a source's {@code SnapshotState} of checkpoint {@code c} goes: Flink's source task
     * broadcasts the barrier and only then calls {@code SourceReader.snapshotState}, in one mailbox
     * action (SubtaskCheckpointCoordinatorImpl.checkpointState: "Step (2): Send the checkpoint
     * barrier downstream", "Step (3): Take the state snapshot"), so a downstream task may take its
     * own snapshot of {@code c} before the reader's line is written. The injection happened after
     * the source's previous event (same thread) and before any event the barrier caused, the first
     * of which is an operator's {@code SnapshotState} of {@code c}: the line goes just before the
     * first such event after the source's previous one, or at the end if there is none.
     */
    private int injectionPoint(String task, Object c) {
        int own = events.size() - 1;
        while (own >= 0 && !task.equals(events.get(own).get("task"))) {
            own--;
        }
        for (int k = own + 1; k < events.size(); k++) {
            Map<String, Object> ev = events.get(k);
            if (ev.get("event").equals("SnapshotState") && c.equals(ev.get("checkpoint"))
                    && !sources.contains((String) ev.get("task"))) {
                return k;
            }
        }
        return events.size();
    }

    /** Source tasks now waiting at a gate for a checkpoint (the harness triggers one while any is). */
    private final java.util.Set<String> atGate = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /** Arrivals at gates so far: the harness triggers one checkpoint per arrival. */
    private final java.util.concurrent.atomic.AtomicLong arrivals = new java.util.concurrent.atomic.AtomicLong();

    private volatile long lastArrivalNanos;

    long gateArrivals() {
        return arrivals.get();
    }

    /** When a source last arrived at a gate (System.nanoTime). */
    long lastArrivalNanos() {
        return lastArrivalNanos;
    }

    int sourcesAtGate() {
        return atGate.size();
    }

    void waitingAtGate(String task, boolean waiting) {
        if (waiting) {
            lastArrivalNanos = System.nanoTime();
            arrivals.incrementAndGet();
            atGate.add(task);
        } else {
            atGate.remove(task);
        }
    }

    /** Source tasks whose reader (of the current attempt) has returned END_OF_INPUT. */
    private final java.util.Set<String> ended = java.util.concurrent.ConcurrentHashMap.newKeySet();

    void sourceEnded(String task, boolean isEnded) {
        if (isEnded) {
            ended.add(task);
        } else {
            ended.remove(task);
        }
    }

    int sourcesEnded() {
        return ended.size();
    }

    boolean anySourceAtGate() {
        return !atGate.isEmpty();
    }

    /**
     * The two-phase-commit sink's directory ({@link TransactionalSink}): {@code pending/} holds the
     * pre-committed transaction files, {@code committed/} the committed ones (what a reader of the
     * output sees); null for a run with the plain sink.
     */
    private volatile Path sinkDir;

    void sinkDir(Path dir) {
        sinkDir = dir;
    }

    Path sinkDir() {
        return sinkDir;
    }

    /** Pre-committed transactions of the sink: file name -> {attempt, checkpoint it was pre-committed in}. */
    private final Map<String, long[]> transactions = new java.util.concurrent.ConcurrentHashMap<>();
    private final java.util.Set<String> committedTransactions = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /** The writer of attempt {@code attempt} pre-committed transaction {@code name} in checkpoint {@code c}. */
    void transactionPreCommitted(String name, int attempt, long c) {
        transactions.put(name, new long[] {attempt, c});
    }

    /** The checkpoint transaction {@code name} was pre-committed in; null if the writer named none. */
    Long transactionCheckpoint(String name) {
        long[] t = transactions.get(name);
        return t == null ? null : t[1];
    }

    void transactionCommitted(String name) {
        committedTransactions.add(name);
    }

    /** Whether attempt {@code attempt}'s writer pre-committed a transaction in a checkpoint up to {@code c} not committed yet. */
    boolean transactionPendingUpTo(int attempt, long c) {
        return transactions.entrySet().stream().anyMatch(e -> e.getValue()[0] == attempt && e.getValue()[1] <= c
                && !committedTransactions.contains(e.getKey()));
    }

    /**
     * The committed output now: every record line of every file in the sink's {@code committed/},
     * as a trace bag. Read under this log's lock by the sink's events (the committer renames
     * under it too), so an event's output is exactly what the commits logged before it left.
     */
    synchronized List<Object> committedOutput() {
        Map<String, Integer> counts = new LinkedHashMap<>();
        Path dir = sinkDir == null ? null : sinkDir.resolve("committed");
        if (dir != null && Files.isDirectory(dir)) {
            try (java.util.stream.Stream<Path> s = Files.list(dir)) {
                for (Path f : s.sorted().toList()) {
                    for (String line : Files.readAllLines(f, StandardCharsets.UTF_8)) {
                        if (!line.isBlank()) {
                            counts.merge(line.trim(), 1, Integer::sum);
                        }
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the committed output " + dir + ": " + e.getMessage(), e);
            }
        }
        return bag(counts);
    }

    /** Claims attempt {@code attempt}'s one seeded throw; false if it was taken (or the attempt is not the next). */
    public boolean claimThrow(int attempt) {
        return thrown.compareAndSet(attempt, attempt + 1);
    }

    /** The events so far, in order (a copy). */
    public synchronized List<Map<String, Object>> events() {
        return new ArrayList<>(events);
    }

    /** Writes the header and every event to {@code file}. */
    public synchronized void write(Path file) {
        try {
            Path dir = file.toAbsolutePath().getParent();
            if (dir != null) {
                Files.createDirectories(dir);
            }
            Files.write(file, lines, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the trace " + file + ": " + e.getMessage(), e);
        }
    }

    /** {@code {"src": src, "off": off}}. */
    public static Map<String, Object> record(String src, int off) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("src", src);
        r.put("off", off);
        return r;
    }

    /** A bag as the trace writes it: {@code [[record, count], ...]} in record order. */
    public static List<Object> bag(Map<String, Integer> counts) {
        List<Object> out = new ArrayList<>();
        counts.entrySet().stream().sorted(Map.Entry.comparingByKey(TraceLog::compareIds)).forEach(e -> {
            String[] p = e.getKey().split("/");
            out.add(List.of(record(p[0], Integer.parseInt(p[1])), e.getValue()));
        });
        return out;
    }

    private static int compareIds(String a, String b) {
        String[] pa = a.split("/");
        String[] pb = b.split("/");
        int c = pa[0].compareTo(pb[0]);
        return c != 0 ? c : Integer.compare(Integer.parseInt(pa[1]), Integer.parseInt(pb[1]));
    }

    /** Minimal JSON for maps, lists, strings, numbers and booleans (the trace's values). */
    static String json(Object v) {
        StringBuilder b = new StringBuilder();
        json(b, v);
        return b.toString();
    }

    private static void json(StringBuilder b, Object v) {
        if (v instanceof Map<?, ?> m) {
            b.append('{');
            String sep = "";
            for (Map.Entry<?, ?> e : m.entrySet()) {
                b.append(sep);
                string(b, (String) e.getKey());
                b.append(':');
                json(b, e.getValue());
                sep = ",";
            }
            b.append('}');
        } else if (v instanceof List<?> l) {
            b.append('[');
            for (int i = 0; i < l.size(); i++) {
                if (i > 0) {
                    b.append(',');
                }
                json(b, l.get(i));
            }
            b.append(']');
        } else if (v instanceof String s) {
            string(b, s);
        } else if (v instanceof Number || v instanceof Boolean) {
            b.append(v);
        } else {
            throw new IllegalArgumentException("no JSON form for " + v);
        }
    }

    private static void string(StringBuilder b, String s) {
        b.append('"');
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                default -> b.append(c < 0x20 ? String.format("\\u%04x", (int) c) : String.valueOf(c));
            }
        }
        b.append('"');
    }
}
