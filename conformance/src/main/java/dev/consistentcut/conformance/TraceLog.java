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
    /** Seeded faults so far: fault {@code k} may happen once, when this is {@code k}. */
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
        waitingAtGate(task, waiting, -1);
    }

    /** Source {@code task} waits at gate index {@code g} now ({@code waiting}), or no longer. */
    void waitingAtGate(String task, boolean waiting, int g) {
        if (waiting) {
            lastArrivalNanos = System.nanoTime();
            arrivals.incrementAndGet();
            atGate.add(task);
            if (g >= 0) {
                gateIndexWaiting.put(task, g);
            }
        } else {
            atGate.remove(task);
            gateIndexWaiting.remove(task);
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

    /** The gate index no source passes while set (the harness takes a savepoint there first); -1: none. */
    private volatile int heldGate = -1;

    /** Holds the sources at gate index {@code g} ({@code -1}: lets them go). */
    void holdGate(int g) {
        heldGate = g;
    }

    /** Whether a source may not pass gate index {@code g} now. */
    boolean gateHeld(int g) {
        return g >= 0 && heldGate == g;
    }

    /**
     * Added to every attempt number a function reads from Flink: the job restored from a
     * stop-with-savepoint starts again at attempt 0, and its attempts follow the first job's in
     * the trace (to the spec, the stop is a failure and the new job a restore).
     */
    private volatile int attemptBase;

    /** The trace's attempt of a task whose Flink attempt number is {@code flinkAttempt}. */
    int attempt(int flinkAttempt) {
        return flinkAttempt + attemptBase;
    }

    /**
     * The first job ended (stopped with a savepoint): the next job's attempts start at
     * {@code nextAttempt}, and what the harness knew of the first job's sources (waiting at a
     * gate, ended) is forgotten.
     */
    void jobStopped(int nextAttempt) {
        attemptBase = nextAttempt;
        atGate.clear();
        gateIndexWaiting.clear();
        ended.clear();
    }

    /** The highest gate index whose checkpoint a waiting source was told completed (-1: none). */
    private final java.util.concurrent.atomic.AtomicInteger gateCompleted = new java.util.concurrent.atomic.AtomicInteger(-1);

    /** The same per attempt: attempt -> the highest gate index whose checkpoint completed in it. */
    private final Map<Integer, Integer> gateCompletedIn = new java.util.concurrent.ConcurrentHashMap<>();

    /** A source of attempt {@code attempt} waiting at gate index {@code g} was told that gate's checkpoint completed. */
    void gateCheckpointCompleted(int attempt, int g) {
        gateCompleted.accumulateAndGet(g, Math::max);
        gateCompletedIn.merge(attempt, g, Math::max);
    }

    int gateCompleted() {
        return gateCompleted.get();
    }

    /** The highest gate index whose checkpoint completed in attempt {@code attempt} (-1: none). */
    int gateCompleted(int attempt) {
        return gateCompletedIn.getOrDefault(attempt, -1);
    }

    /** The newest checkpoint id any SnapshotState so far names (0: none). */
    synchronized long newestSnapshotId() {
        return events.stream().filter(e -> e.get("event").equals("SnapshotState"))
                .mapToLong(e -> ((Number) e.get("checkpoint")).longValue()).max().orElse(0);
    }

    /**
     * Marks every SnapshotState of checkpoint {@code c} with {@code "savepoint": true}: the harness
     * learns that {@code c} was its savepoint only once the savepoint completed.
     */
    synchronized void markSavepoint(long c) {
        for (int k = 0; k < events.size(); k++) {
            Map<String, Object> e = events.get(k);
            if (e.get("event").equals("SnapshotState") && ((Number) e.get("checkpoint")).longValue() == c) {
                e.put("savepoint", true);
                lines.set(k + 1, json(e));
            }
        }
    }

    /**
     * Marks every SnapshotState of checkpoint {@code c} with {@code "stopWithSavepoint": true}: the
     * synchronous savepoint of a stop-with-savepoint, which Flink completes, notifies and restores
     * the next job from (to the spec, an ordinary checkpoint: not {@code "savepoint"}, which
     * TraceFlink.tla aborts).
     */
    synchronized void markStopWithSavepoint(long c) {
        for (int k = 0; k < events.size(); k++) {
            Map<String, Object> e = events.get(k);
            if (e.get("event").equals("SnapshotState") && ((Number) e.get("checkpoint")).longValue() == c) {
                e.put("stopWithSavepoint", true);
                lines.set(k + 1, json(e));
            }
        }
    }

    /** Claims seeded fault {@code k} (the k-th of the run); false if it was taken (or it is not the next). */
    public boolean claimFault(int k) {
        return thrown.compareAndSet(k, k + 1);
    }

    /** Seeded faults claimed so far: the next one is fault {@code faults()}, at gate {@code faults()}. */
    int faults() {
        return thrown.get();
    }

    /** Gate indexes a source waits at now (a source's index in {@link RunSpec#gates()}), by source task. */
    private final Map<String, Integer> gateIndexWaiting = new java.util.concurrent.ConcurrentHashMap<>();

    /** Whether some source waits at gate index {@code g} now. */
    boolean sourceWaitsAtGate(int g) {
        return gateIndexWaiting.containsValue(g);
    }

    /** The highest gate index a source of attempt {@code attempt} has passed (-1: none). */
    private final Map<Integer, Integer> gatePassed = new java.util.concurrent.ConcurrentHashMap<>();

    void passedGate(int attempt, int g) {
        gatePassed.merge(attempt, g, Math::max);
    }

    /** Whether a source of attempt {@code attempt} has passed gate index {@code g} (its checkpoint completed). */
    boolean gatePassed(int attempt, int g) {
        return gatePassed.getOrDefault(attempt, -1) >= g;
    }

    /**
     * Where each task of each attempt runs: {@code "<attempt> <task>"} -> its TaskManager's
     * resource id (the metric variable {@code <tm_id>}); and the keyed tasks' TaskManager index in
     * the MiniCluster ({@link #tmIndex}), which the harness terminates by.
     */
    private final Map<String, String> tmOfTask = new java.util.concurrent.ConcurrentHashMap<>();
    private final Map<String, Integer> tmIndexOf = new java.util.concurrent.ConcurrentHashMap<>();

    /** Task {@code task} of attempt {@code attempt} runs on TaskManager {@code tmId} (index {@code tmIndex}, -1: unknown). */
    void placed(String task, int attempt, String tmId, int tmIndex) {
        if (tmId != null) {
            tmOfTask.put(attempt + " " + task, tmId);
            if (tmIndex >= 0) {
                tmIndexOf.put(tmId, tmIndex);
            }
        }
    }

    /** The TaskManager resource id task {@code task} of attempt {@code attempt} runs on; null if unknown. */
    String tmOf(String task, int attempt) {
        return tmOfTask.get(attempt + " " + task);
    }

    /** The MiniCluster index of TaskManager {@code tmId}; -1 if unknown. */
    int tmIndex(String tmId) {
        return tmIndexOf.getOrDefault(tmId, -1);
    }

    /** The tasks of attempt {@code attempt} on TaskManager {@code tmId}, sorted. */
    List<String> tasksOn(String tmId, int attempt) {
        String prefix = attempt + " ";
        return tmOfTask.entrySet().stream().filter(e -> e.getKey().startsWith(prefix) && e.getValue().equals(tmId))
                .map(e -> e.getKey().substring(prefix.length())).sorted().toList();
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
