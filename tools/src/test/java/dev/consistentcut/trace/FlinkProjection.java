package dev.consistentcut.trace;

import dev.consistentcut.text.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * An engine trace seen as the Flink conformance harness would see the same run: only what
 * Flink's user functions observe (docs/conformance-spec.md). The hidden events are dropped and
 * the {@code channels} fields with them; a source's {@code InjectBarrier} becomes its
 * {@code SnapshotState} (Flink calls {@code SourceReader.snapshotState} as it broadcasts the
 * barrier); an operator's step that took a snapshot ({@code ReceiveBarrier},
 * {@code ReceiveEndOfPartition}, {@code TimeoutAlignment} with a {@code snapshot}) becomes its
 * {@code SnapshotState}; {@code CompleteCheckpoint} becomes every task's
 * {@code NotifyCheckpointComplete}; {@code FailAndRestore} becomes a {@code FailTask} and every
 * task's {@code InitializeState}; every event carries the attempt (the failures so far). Used
 * to test spec/traces/TraceFlink*.tla without Flink, and to make its broken twins.
 */
final class FlinkProjection {

    private FlinkProjection() {
    }

    /** The projection of the engine trace {@code lines} (header first). */
    static List<String> project(List<String> lines) {
        Map<String, Object> header = map(Json.parse(lines.get(0)));
        if (Boolean.TRUE.equals(header.get("transactionalSink"))) {
            throw new IllegalArgumentException("a transactional sink's trace: its commits are not projected");
        }
        header.put("runtime", "flink");
        header.put("flinkVersion", "projected");
        List<String> sources = strings(header.get("sources"));
        List<String> operators = strings(header.get("operators"));
        List<String> tasks = new ArrayList<>(sources);
        tasks.addAll(operators);
        List<String> out = new ArrayList<>();
        out.add(write(header));
        long attempt = 0;
        for (String t : tasks) {
            out.add(write(initialize(t, attempt, 0, sources.contains(t) ? 0L : List.of(), sources.contains(t))));
        }
        for (String line : lines.subList(1, lines.size())) {
            Map<String, Object> ev = map(Json.parse(line));
            String event = (String) ev.get("event");
            switch (event) {
                case "EmitRecord" -> out.add(write(ev(event, ev.get("task"), attempt, "record", ev.get("record"),
                        "offset", ev.get("offset"))));
                case "ProcessRecord" -> out.add(write(ev(event, ev.get("task"), attempt, "channel", ev.get("channel"),
                        "record", ev.get("record"))));
                case "SendEndOfPartition" -> out.add(write(ev(event, ev.get("task"), attempt, "offset", ev.get("offset"))));
                case "InjectBarrier" -> out.add(write(ev("SnapshotState", ev.get("task"), attempt,
                        "checkpoint", ev.get("checkpoint"), "offset", ev.get("offset"))));
                case "ReceiveBarrier", "ReceiveEndOfPartition", "TimeoutAlignment" -> {
                    if (ev.containsKey("snapshot")) {
                        out.add(write(ev("SnapshotState", ev.get("task"), attempt, "checkpoint", ev.get("checkpoint"),
                                "snapshot", ev.get("snapshot"))));
                    }
                }
                case "CompleteCheckpoint" -> {
                    for (String t : tasks) {
                        out.add(write(ev("NotifyCheckpointComplete", t, attempt, "checkpoint", ev.get("checkpoint"))));
                    }
                }
                case "NotifyCheckpointAborted" -> out.add(write(ev(event, ev.get("task"), attempt,
                        "checkpoint", ev.get("checkpoint"))));
                case "FailAndRestore" -> {
                    out.add(write(ev("FailTask", sources.get(0), attempt, "cause", "projected")));
                    attempt++;
                    Map<String, Object> offsets = pairs(ev.get("offsets"));
                    Map<String, Object> processed = pairs(ev.get("processed"));
                    long restored = (Long) ev.get("restored");
                    for (String t : tasks) {
                        boolean source = sources.contains(t);
                        Object value = source ? offsets.get(t) : processed.getOrDefault(t, List.of());
                        out.add(write(initialize(t, attempt, restored, value, source)));
                    }
                }
                case "RunEnded" -> out.add(write(ev(event, "job", attempt, "finished", ev.get("finished"))));
                default -> {
                    // hidden: TriggerCheckpoint, AbortCheckpoint, ReceiveCancelBarrier, PrioritizeBarrier, ...
                }
            }
        }
        return out;
    }

    private static Map<String, Object> initialize(String task, long attempt, long restored, Object value, boolean source) {
        return ev("InitializeState", task, attempt, "restored", restored, source ? "offset" : "processed", value);
    }

    /** An event: its name, task, attempt, then field/value pairs. */
    static Map<String, Object> ev(String event, Object task, long attempt, Object... fields) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("event", event);
        m.put("task", task);
        m.put("attempt", attempt);
        for (int k = 0; k < fields.length; k += 2) {
            m.put((String) fields[k], fields[k + 1]);
        }
        return m;
    }

    /**
     * A broken twin: {@code lines} with the {@code n}-th (1-based) event line matching
     * {@code which} replaced by {@code edit} of it (null: removed). Returns the edited lines and
     * the event number (line - 1) of the edited event.
     */
    static Edited edit(List<String> lines, java.util.function.Predicate<Map<String, Object>> which, int n,
                       UnaryOperator<Map<String, Object>> edit) {
        int seen = 0;
        for (int k = 1; k < lines.size(); k++) {
            Map<String, Object> ev = map(Json.parse(lines.get(k)));
            if (which.test(ev) && ++seen == n) {
                List<String> out = new ArrayList<>(lines);
                Map<String, Object> e = edit.apply(ev);
                out.set(k, write(e));
                return new Edited(out, k);
            }
        }
        throw new IllegalArgumentException("no event number " + n + " of that kind in the trace");
    }

    /** A broken twin's lines and the number of the event edited (its line number minus one). */
    record Edited(List<String> lines, int event) {
    }

    /** The event line {@code k} (an event number) duplicated: the same observation twice. */
    static List<String> duplicate(List<String> lines, int k) {
        List<String> out = new ArrayList<>(lines);
        out.add(k + 1, lines.get(k));
        return out;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object o) {
        return new LinkedHashMap<>((Map<String, Object>) o);
    }

    @SuppressWarnings("unchecked")
    private static List<String> strings(Object o) {
        return (List<String>) o;
    }

    /** A list of [key, value] pairs as a map. */
    private static Map<String, Object> pairs(Object o) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (Object p : (List<?>) o) {
            List<?> kv = (List<?>) p;
            m.put((String) kv.get(0), kv.get(1));
        }
        return m;
    }

    /** {@code v} as one line of JSON. */
    static String write(Object v) {
        StringBuilder b = new StringBuilder();
        write(b, v);
        return b.toString();
    }

    private static void write(StringBuilder b, Object v) {
        if (v instanceof Map<?, ?> m) {
            b.append('{');
            String sep = "";
            for (Map.Entry<?, ?> e : m.entrySet()) {
                b.append(sep);
                Json.quote(b, (String) e.getKey()).append(':');
                write(b, e.getValue());
                sep = ",";
            }
            b.append('}');
        } else if (v instanceof List<?> l) {
            b.append('[');
            for (int k = 0; k < l.size(); k++) {
                b.append(k == 0 ? "" : ",");
                write(b, l.get(k));
            }
            b.append(']');
        } else if (v instanceof String s) {
            Json.quote(b, s);
        } else {
            b.append(v);
        }
    }

    /** The distinct tasks a projected trace's events name (a check of the projection itself). */
    static Set<String> tasks(List<String> lines) {
        Set<String> s = new LinkedHashSet<>();
        for (String l : lines.subList(1, lines.size())) {
            s.add(String.valueOf(map(Json.parse(l)).get("task")));
        }
        return s;
    }
}
