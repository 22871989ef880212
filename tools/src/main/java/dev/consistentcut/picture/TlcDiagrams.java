package dev.consistentcut.picture;

import dev.consistentcut.picture.Diagram.Kind;
import dev.consistentcut.picture.Diagram.Row;
import dev.consistentcut.picture.Diagram.Token;
import dev.consistentcut.text.TlaValue;
import dev.consistentcut.text.TlaValue.Atom;
import dev.consistentcut.text.TlaValue.SetOf;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns a TLC error trace of the specs in {@code spec/} into a {@link Diagram}: the lanes are the
 * domain of {@code chan}, each row the state after one action; {@code arrived} marks the inputs
 * whose barrier has arrived, a change of {@code snapChan} the persisted channel state, a change of
 * {@code snapProcessed} a snapshot; every other changed variable becomes a note. Stateless.
 */
public final class TlcDiagrams {

    /** The variables drawn as lanes or marks rather than written as notes. */
    private static final Set<String> DRAWN = Set.of("chan", "snapChan");

    /** Actions of the coordinator or the whole job rather than of one task. */
    private static final java.util.regex.Pattern GLOBAL = java.util.regex.Pattern.compile("Fail|Restore|Trigger|Complete|Abort|Timeout");

    private TlcDiagrams() {
    }

    /**
     * @param title the model's name
     * @param subtitle what the model is (models.tsv's description)
     * @param verdict the closing lines (the violation, and the numbers if known)
     */
    public static Diagram of(TlcTrace trace, String title, String subtitle, List<String> verdict) {
        TlcTrace.State first = trace.states().get(0);
        // A spec without channels (another module, a test fixture) gets a picture of notes only.
        TlaValue chan0 = first.vars().get("chan");
        List<TlaValue> edges = chan0 == null ? List.of() : new ArrayList<>(chan0.entries().keySet());
        List<String> lanes = edges.stream().map(Compact::of).toList();
        List<Row> rows = new ArrayList<>();
        TlcTrace.State prev = null;
        int n = trace.states().size();
        for (int k = 0; k < n; k++) {
            TlcTrace.State s = trace.states().get(k);
            Map<String, TlaValue> v = s.vars();
            List<List<Token>> cells = new ArrayList<>();
            List<Boolean> changed = new ArrayList<>();
            List<Boolean> blocked = new ArrayList<>();
            List<List<Token>> persisted = new ArrayList<>();
            String actor = "";
            for (TlaValue e : edges) {
                TlaValue now = v.get("chan").get(e);
                TlaValue before = prev == null ? now : prev.vars().get("chan").get(e);
                cells.add(Compact.tokens(now));
                boolean ch = !now.equals(before);
                changed.add(ch);
                if (ch && actor.isEmpty()) {
                    List<TlaValue> was = new ArrayList<>(before.entries().values());
                    List<TlaValue> is = new ArrayList<>(now.entries().values());
                    // A source's step (emit, inject: an unaligned barrier goes to the head) is the sender's;
                    // any other step that changed a channel's head read it: the receiver's.
                    boolean sends = s.action().startsWith("Emit") || s.action().startsWith("Inject");
                    boolean headRead = !sends && !was.isEmpty()
                            && (is.size() < was.size() || !is.isEmpty() && !is.get(0).equals(was.get(0)));
                    actor = Compact.of(e.entries().get(new TlaValue.Num(headRead ? 2 : 1)));
                }
                blocked.add(arrived(v.get("arrived"), e));
                persisted.add(persistedNow(prev, s, e));
            }
            List<String> notes = new ArrayList<>();
            for (Map.Entry<String, TlaValue> var : v.entrySet()) {
                if (prev != null && !DRAWN.contains(var.getKey())) {
                    Compact.diff(var.getKey(), prev.vars().get(var.getKey()), var.getValue(), 0, notes);
                }
            }
            if (prev == null && !edges.isEmpty()) {
                notes.add("the initial state (offsets 0, no checkpoint, nothing processed)");
            } else if (prev == null) {
                v.forEach((name, value) -> {
                    String c = Compact.of(value);
                    if (!DRAWN.contains(name) && c.length() <= 48) {
                        notes.add(name + " = " + c);
                    }
                });
            }
            if (trace.loopsBackTo() > 0 && k == n - 1) {
                notes.add(trace.loopsBackTo() < s.number() ? "from here the behaviour returns to state " + trace.loopsBackTo() + " for ever"
                        : "from here the behaviour stutters for ever");
            }
            if (actor.isEmpty() && prev != null) {
                actor = offsetActor(prev, s);
            }
            if (GLOBAL.matcher(s.action()).find()) {
                actor = ""; // the coordinator's or the whole job's step, no task's
            }
            if (prev != null && s.action().startsWith("InjectBarrier")) {
                recordedOffset(prev, s, actor, notes);
            }
            Kind kind = kind(s.action(), prev, s);
            if (k == n - 1 && !trace.violatedName().isEmpty() && !trace.violation().startsWith("Temporal")) {
                kind = Kind.VIOLATION;
            }
            rows.add(new Row(Integer.toString(s.number()), s.action(), actor, kind, cells, changed, blocked, persisted, notes));
            prev = s;
        }
        return new Diagram(title, subtitle, lanes, rows, verdict);
    }

    private static Kind kind(String action, TlcTrace.State prev, TlcTrace.State s) {
        if (action.contains("Fail") || action.contains("Restore")) {
            return Kind.FAIL;
        }
        if (action.startsWith("Complete")) {
            return Kind.COMPLETE;
        }
        if (action.startsWith("Trigger")) {
            return Kind.TRIGGER;
        }
        if (prev != null && s.vars().containsKey("snapProcessed")
                && !s.vars().get("snapProcessed").equals(prev.vars().get("snapProcessed"))) {
            return Kind.SNAPSHOT;
        }
        return Kind.STEP;
    }

    private static boolean arrived(TlaValue arrived, TlaValue edge) {
        if (arrived == null) {
            return false;
        }
        TlaValue receiver = edge.entries().get(new TlaValue.Num(2));
        TlaValue set = receiver instanceof Atom a ? arrived.field(a.text()) : arrived.get(receiver);
        return set instanceof SetOf s && s.items().contains(edge);
    }

    private static List<Token> persistedNow(TlcTrace.State prev, TlcTrace.State s, TlaValue edge) {
        TlaValue snap = s.vars().get("snapChan");
        if (prev == null || snap == null || snap.equals(prev.vars().get("snapChan"))) {
            return List.of();
        }
        TlaValue before = prev.vars().get("snapChan");
        List<Token> out = new ArrayList<>();
        for (Map.Entry<TlaValue, TlaValue> c : snap.entries().entrySet()) {
            TlaValue now = c.getValue().get(edge);
            TlaValue was = before.get(c.getKey()) == null ? null : before.get(c.getKey()).get(edge);
            if (now != null && !now.equals(was)) {
                // snapChan only grows within a checkpoint: draw what this step added
                List<TlaValue> all = new ArrayList<>(now.entries().values());
                List<TlaValue> old = was == null ? List.of() : new ArrayList<>(was.entries().values());
                List<TlaValue> added = all.size() >= old.size() && all.subList(0, old.size()).equals(old)
                        ? all.subList(old.size(), all.size()) : all;
                out.addAll(Compact.tokens(new TlaValue.Tuple(added)));
            }
        }
        return out;
    }

    /**
     * What the source recorded as its offset in the checkpoint it acknowledged, next to its real
     * offset, said even when snapOffset did not change (a bug may record the old value).
     */
    private static void recordedOffset(TlcTrace.State prev, TlcTrace.State s, String source, List<String> notes) {
        TlaValue acked = s.vars().get("acked");
        TlaValue snap = s.vars().get("snapOffset");
        TlaValue offset = s.vars().get("offset");
        if (acked == null || snap == null || offset == null || notes.stream().anyMatch(n -> n.startsWith("snapOffset"))) {
            return;
        }
        for (Map.Entry<TlaValue, TlaValue> c : acked.entries().entrySet()) {
            if (!c.getValue().equals(prev.vars().get("acked").get(c.getKey()))) {
                for (Map.Entry<TlaValue, TlaValue> src : offset.entries().entrySet()) {
                    if (Compact.of(src.getKey()).equals(source)) {
                        notes.add("snapOffset[" + Compact.of(c.getKey()) + "][" + source + "] = "
                                + Compact.of(snap.get(c.getKey()).get(src.getKey())) + " recorded (offset[" + source + "] = "
                                + Compact.of(src.getValue()) + ")");
                    }
                }
            }
        }
    }

    private static String offsetActor(TlcTrace.State prev, TlcTrace.State s) {
        TlaValue now = s.vars().get("offset");
        TlaValue was = prev.vars().get("offset");
        if (now != null && was != null) {
            for (Map.Entry<TlaValue, TlaValue> e : now.entries().entrySet()) {
                if (!e.getValue().equals(was.get(e.getKey()))) {
                    return Compact.of(e.getKey());
                }
            }
        }
        return "";
    }
}
