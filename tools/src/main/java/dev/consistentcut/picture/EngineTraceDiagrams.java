package dev.consistentcut.picture;

import dev.consistentcut.picture.Diagram.Kind;
import dev.consistentcut.picture.Diagram.Row;
import dev.consistentcut.picture.Diagram.Token;
import dev.consistentcut.text.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Turns an engine trace (NDJSON, {@code dev.consistentcut.trace.TraceRecorder}) into a
 * {@link Diagram}: one lane per channel of the header, one row per event with the channels' contents
 * after it. Blocked inputs are derived (aligned mode: from a task's barrier on an input until its
 * snapshot); a rejected trace's first unexplained event is marked and the validator's reason
 * quoted. Stateless.
 */
public final class EngineTraceDiagrams {

    /** Fields shown by the lanes, not as notes. */
    private static final Set<String> DRAWN = Set.of("event", "task", "channels", "persisted");

    private EngineTraceDiagrams() {
    }

    /**
     * @param unexplained the number of the first event no action explains (1 = the line after the header), 0 if none
     * @param why the validator's account of it (lines), shown in the verdict
     */
    @SuppressWarnings("unchecked")
    public static Diagram of(Path trace, long unexplained, List<String> why) {
        List<String> lines;
        try {
            lines = Files.readAllLines(trace);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read trace " + trace + ": " + e.getMessage(), e);
        }
        if (lines.isEmpty()) {
            throw new IllegalArgumentException(trace + ": empty, not a trace");
        }
        Map<String, Object> header = (Map<String, Object>) Json.parse(lines.get(0));
        if (!"consistent-cut-trace".equals(header.get("trace"))) {
            throw new IllegalArgumentException(trace + ": line 1 is not a consistent-cut-trace header");
        }
        if (!(header.get("edges") instanceof List<?>)) {
            // A store or rescale trace: its events are not messages on channels, so it has no lanes.
            throw new IllegalArgumentException("a " + header.get("mode") + " trace has no channels to draw;"
                    + " only a protocol's trace is drawn");
        }
        List<String> lanes = new ArrayList<>();
        Map<String, Integer> laneOf = new HashMap<>();
        for (Object e : (List<Object>) header.get("edges")) {
            laneOf.put(edge(e), lanes.size());
            lanes.add(edge(e));
        }
        boolean aligned = "aligned".equals(header.get("mode"));
        List<List<Token>> contents = new ArrayList<>();
        lanes.forEach(l -> contents.add(List.of()));
        Map<String, Set<Integer>> arrived = new HashMap<>();
        List<Row> rows = new ArrayList<>();
        long last = unexplained > 0 ? Math.min(unexplained, lines.size() - 1) : lines.size() - 1;
        for (int n = 1; n <= last; n++) {
            Map<String, Object> ev = (Map<String, Object>) Json.parse(lines.get(n));
            String name = String.valueOf(ev.get("event"));
            String task = ev.get("task") == null ? "" : String.valueOf(ev.get("task"));
            List<Boolean> changed = new ArrayList<>(lanes.stream().map(l -> false).toList());
            List<List<Token>> persisted = new ArrayList<>(lanes.stream().map(l -> List.<Token>of()).toList());
            if (ev.get("channels") instanceof List<?> chans) {
                for (Object pair : chans) {
                    List<Object> p = (List<Object>) pair;
                    Integer lane = laneOf.get(edge(p.get(0)));
                    if (lane != null) {
                        contents.set(lane, tokens((List<Object>) p.get(1)));
                        changed.set(lane, true);
                    }
                }
            }
            if (ev.get("persisted") instanceof List<?> per) {
                for (Object pair : per) {
                    List<Object> p = (List<Object>) pair;
                    Integer lane = laneOf.get(edge(p.get(0)));
                    if (lane != null && !((List<Object>) p.get(1)).isEmpty()) {
                        persisted.set(lane, tokens((List<Object>) p.get(1)));
                    }
                }
            } else if (Boolean.TRUE.equals(ev.get("persisted")) && ev.get("channel") != null && ev.get("record") != null) {
                persisted.set(laneOf.get(edge(ev.get("channel"))), List.of(new Token(value(ev.get("record")), false)));
            }
            List<?> abandoned = ev.get("abandoned") instanceof List<?> a ? a : List.of();
            if (aligned && !abandoned.isEmpty()) {
                arrived.remove(task); // an abandoned alignment unblocks every input
            }
            if (aligned && name.equals("ReceiveBarrier")
                    && (abandoned.isEmpty() || !abandoned.get(abandoned.size() - 1).equals(ev.get("checkpoint")))) {
                Set<Integer> in = arrived.computeIfAbsent(task, t -> new HashSet<>());
                in.add(laneOf.get(edge(ev.get("channel"))));
                if (ev.containsKey("snapshot")) {
                    in.clear(); // the last barrier: the snapshot is taken and the inputs unblock
                }
            } else if (aligned && name.equals("ReceiveEndOfPartition") && ev.containsKey("snapshot")) {
                arrived.remove(task); // the ended input completed the alignment
            } else if (name.equals("FailAndRestore") || name.equals("AbortCheckpoint")) {
                arrived.clear();
            }
            List<Boolean> blocked = new ArrayList<>();
            for (int l = 0; l < lanes.size(); l++) {
                String receiver = lanes.get(l).substring(lanes.get(l).indexOf('→') + 1);
                blocked.add(arrived.getOrDefault(receiver, Set.of()).contains(l));
            }
            List<String> notes = ev.entrySet().stream().filter(e -> !DRAWN.contains(e.getKey()))
                    .map(e -> e.getKey() + ": " + value(e.getValue())).collect(Collectors.toList());
            Kind kind = switch (name) {
                case "TriggerCheckpoint" -> Kind.TRIGGER;
                case "CompleteCheckpoint" -> Kind.COMPLETE;
                case "FailAndRestore" -> Kind.FAIL;
                default -> ev.containsKey("snapshot") ? Kind.SNAPSHOT : Kind.STEP;
            };
            if (n == unexplained) {
                kind = Kind.UNEXPLAINED;
                notes.add(0, "NO ACTION OF THE SPEC EXPLAINS THIS EVENT");
            }
            rows.add(new Row(Integer.toString(n), name, task, kind, new ArrayList<>(contents), changed, blocked, persisted, notes));
        }
        String title = trace.getFileName() + (unexplained > 0 ? ": rejected at event " + unexplained : "");
        String subtitle = "Engine trace, " + header.get("mode") + " barriers, " + header.get("runtime") + " runtime, "
                + (lines.size() - 1) + " events" + (last < lines.size() - 1 ? " (shown up to the first unexplained one)" : "")
                + "; channel capacity " + header.get("capacity") + ".";
        List<String> verdict = new ArrayList<>();
        if (unexplained > 0) {
            verdict.add("Rejected: no action of the specification explains event " + unexplained + " (line " + (unexplained + 1) + ")");
            verdict.addAll(why);
        }
        return new Diagram(title, subtitle, lanes, rows, verdict);
    }

    private static String edge(Object e) {
        List<?> pair = (List<?>) e;
        return pair.get(0) + "→" + pair.get(1);
    }

    @SuppressWarnings("unchecked")
    private static List<Token> tokens(List<Object> msgs) {
        List<Token> out = new ArrayList<>();
        for (Object m : msgs) {
            Map<String, Object> msg = (Map<String, Object>) m;
            out.add(0, msg.containsKey("ckpt") ? new Token(value(m), true)
                    : msg.containsKey("cancel") ? new Token("X" + msg.get("cancel"), true) // a cancellation barrier
                    : msg.containsKey("eop") ? new Token("EOP", true) : new Token(value(m), false));
        }
        return out;
    }

    /** Short form of a JSON value: records "s.off", pairs "k=v". */
    @SuppressWarnings("unchecked")
    private static String value(Object v) {
        if (v instanceof Map<?, ?> m && m.containsKey("src")) {
            return m.get("src") + "." + m.get("off");
        }
        if (v instanceof Map<?, ?> m && m.containsKey("ckpt")) {
            return "B" + m.get("ckpt") + (Boolean.FALSE.equals(m.get("aligned")) ? "u" : ""); // alternating: "B1u" overtakes
        }
        if (v instanceof List<?> l) {
            if (l.size() == 2 && l.get(0) instanceof String && l.get(1) instanceof String) {
                return l.get(0) + "→" + l.get(1);
            }
            if (l.size() == 2 && !(l.get(0) instanceof List) && l.get(1) instanceof Long k && l.get(0) instanceof Map) {
                return value(l.get(0)) + (k == 1 ? "" : "×" + k);
            }
            if (l.size() == 2 && l.get(1) instanceof List) {
                return value(l.get(0)) + "=" + value(l.get(1));
            }
            if (l.size() == 2 && l.get(0) instanceof String && l.get(1) instanceof Long) {
                return l.get(0) + "=" + l.get(1);
            }
            return ((List<Object>) l).stream().map(EngineTraceDiagrams::value).collect(Collectors.joining(", ", "{", "}"));
        }
        return String.valueOf(v);
    }
}
