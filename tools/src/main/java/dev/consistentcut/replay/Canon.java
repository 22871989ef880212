package dev.consistentcut.replay;

import dev.consistentcut.text.TlaValue;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * The canonical strings both sides of the replay are reduced to, so that the spec's state and
 * the engine's compare as text: a record {@code s1.0} (source, offset), a barrier {@code B1}
 * (an overtaking one of alternating mode {@code U1}),
 * a cancellation barrier {@code X1}, end of partition {@code EOP}, a sequence of them joined by
 * blanks (head first), a bag as sorted {@code s1.0x2}, a set of edges as sorted
 * {@code from->to} joined by commas, offsets as sorted {@code s=n}.
 */
final class Canon {

    private Canon() {
    }

    static String name(TlaValue v) {
        if (v instanceof TlaValue.Atom a) {
            return a.text();
        }
        if (v instanceof TlaValue.Num n) {
            return Long.toString(n.value());
        }
        throw new IllegalArgumentException("expected a name, got " + v);
    }

    static String number(TlaValue v) {
        if (v instanceof TlaValue.Num n) {
            return Long.toString(n.value());
        }
        throw new IllegalArgumentException("expected a number, got " + v);
    }

    static String edge(TlaValue v) {
        if (v instanceof TlaValue.Tuple t && t.items().size() == 2) {
            return edge(name(t.items().get(0)), name(t.items().get(1)));
        }
        throw new IllegalArgumentException("expected an edge <<from, to>>, got " + v);
    }

    static String edge(String from, String to) {
        return from + "->" + to;
    }

    static String record(String source, long offset) {
        return source + "." + offset;
    }

    static String message(TlaValue m) {
        Map<TlaValue, TlaValue> f = m.entries();
        if (m.field("src") != null) {
            return record(name(m.field("src")), Long.parseLong(number(m.field("off"))));
        }
        if (m.field("ckpt") != null) {
            // AlternatingCheckpoint.tla's barriers say whether they are aligned; an overtaking one is U
            TlaValue aligned = m.field("aligned");
            return (aligned != null && name(aligned).equals("FALSE") ? "U" : "B") + number(m.field("ckpt"));
        }
        if (m.field("cancel") != null) {
            return "X" + number(m.field("cancel"));
        }
        if (m.field("eop") != null) {
            return "EOP";
        }
        throw new IllegalArgumentException("unknown message " + m + " (" + f.size() + " fields)");
    }

    /** A sequence of messages, head first. */
    static String messages(TlaValue seq) {
        List<String> out = new ArrayList<>();
        for (TlaValue m : seq.entries().values()) {
            out.add(message(m));
        }
        return String.join(" ", out);
    }

    /** A bag of records (TLC: a function record -> count; the empty bag prints as {@code << >>}). */
    static String bag(TlaValue bag) {
        List<String> out = new ArrayList<>();
        if (bag instanceof TlaValue.Fn f) {
            f.map().forEach((r, n) -> out.add(message(r) + "x" + number(n)));
        } else if (!(bag instanceof TlaValue.Tuple t && t.items().isEmpty())) {
            throw new IllegalArgumentException("expected a bag, got " + bag);
        }
        Collections.sort(out);
        return String.join(" ", out);
    }

    /** The sum of bags given as canonical text ({@code s1.0x2 s2.0x1}). */
    static String sumOfBags(List<String> bags) {
        Map<String, Integer> counts = new java.util.HashMap<>();
        for (String b : bags) {
            for (String item : b.split(" ")) {
                int x = item.lastIndexOf('x');
                counts.merge(item.substring(0, x), Integer.parseInt(item.substring(x + 1)), Integer::sum);
            }
        }
        return bag(counts);
    }

    static String bag(Map<String, Integer> counts) {
        List<String> out = new ArrayList<>();
        counts.forEach((r, n) -> {
            if (n != 0) {
                out.add(r + "x" + n);
            }
        });
        Collections.sort(out);
        return String.join(" ", out);
    }

    static String edges(TlaValue set) {
        List<String> out = new ArrayList<>();
        if (set instanceof TlaValue.SetOf s) {
            s.items().forEach(e -> out.add(edge(e)));
        } else {
            throw new IllegalArgumentException("expected a set of edges, got " + set);
        }
        Collections.sort(out);
        return String.join(",", out);
    }

    static String edges(List<String> edges) {
        List<String> out = new ArrayList<>(edges);
        Collections.sort(out);
        return String.join(",", out);
    }

    /** A set of names (or numbers) as sorted, comma-joined text. */
    static String names(TlaValue set) {
        List<String> out = new ArrayList<>();
        if (set instanceof TlaValue.SetOf s) {
            s.items().forEach(e -> out.add(name(e)));
        } else {
            throw new IllegalArgumentException("expected a set, got " + set);
        }
        return names(out);
    }

    static String names(java.util.Collection<String> names) {
        List<String> out = new ArrayList<>(names);
        out.sort(java.util.Comparator.comparing((String n) -> n.length()).thenComparing(n -> n));
        return String.join(",", out);
    }

    static String offsets(TlaValue f) {
        List<String> out = new ArrayList<>();
        f.entries().forEach((s, n) -> out.add(name(s) + "=" + number(n)));
        Collections.sort(out);
        return String.join(",", out);
    }

    static String offsets(Map<String, Long> offsets) {
        List<String> out = new ArrayList<>();
        offsets.forEach((s, n) -> out.add(s + "=" + n));
        Collections.sort(out);
        return String.join(",", out);
    }
}
