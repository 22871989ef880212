package dev.consistentcut.picture;

import dev.consistentcut.picture.Diagram.Token;
import dev.consistentcut.text.TlaValue;
import dev.consistentcut.text.TlaValue.Atom;
import dev.consistentcut.text.TlaValue.Fn;
import dev.consistentcut.text.TlaValue.Num;
import dev.consistentcut.text.TlaValue.SetOf;
import dev.consistentcut.text.TlaValue.Tuple;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Short forms of the spec's values for pictures: a record {@code [src |-> s1, off |-> 0]} is
 * "s1.0" (the rescaled restore's copy of it on one route of a diamond,
 * {@code [src |-> s1, off |-> 0, via |-> left]}, "s1.0/left"), a barrier {@code [ckpt |-> 1]} is "B1" (alternating: {@code [ckpt |-> 1, aligned |-> FALSE]},
 * an overtaking one, is "B1u"), a bag of records "{s1.0, s2.1×2}", an edge
 * {@code <<s1, "join">>} "s1→join". Stateless.
 */
final class Compact {

    private Compact() {
    }

    static String of(TlaValue v) {
        if (v instanceof Atom a) {
            return a.text();
        }
        if (v instanceof Num n) {
            return Long.toString(n.value());
        }
        if (isRecord(v)) {
            TlaValue via = v.field("via");
            return of(v.field("src")) + "." + of(v.field("off")) + (via == null ? "" : "/" + of(via));
        }
        if (isBarrier(v)) {
            // Alternating barriers carry their type: an overtaking (unaligned) one is "B1u".
            TlaValue aligned = v.field("aligned");
            return "B" + of(v.field("ckpt")) + (aligned != null && !"TRUE".equals(of(aligned)) ? "u" : "");
        }
        if (v instanceof Tuple t) {
            if (t.items().size() == 2 && t.items().stream().allMatch(x -> x instanceof Atom)) {
                return of(t.items().get(0)) + "→" + of(t.items().get(1));
            }
            return t.items().stream().map(Compact::of).collect(Collectors.joining(", ", "<<", ">>"));
        }
        if (v instanceof SetOf s) {
            return s.items().stream().map(Compact::of).collect(Collectors.joining(", ", "{", "}"));
        }
        Fn f = (Fn) v;
        if (!f.map().isEmpty() && f.map().keySet().stream().allMatch(Compact::isRecord)
                && f.map().values().stream().allMatch(x -> x instanceof Num)) {
            return f.map().entrySet().stream()
                    .map(e -> of(e.getKey()) + (((Num) e.getValue()).value() == 1 ? "" : "×" + of(e.getValue())))
                    .collect(Collectors.joining(", ", "{", "}"));
        }
        return f.map().entrySet().stream().map(e -> of(e.getKey()) + ": " + of(e.getValue()))
                .collect(Collectors.joining(", ", "[", "]"));
    }

    static boolean isRecord(TlaValue v) {
        return v instanceof Fn f && v.field("src") != null && v.field("off") != null
                && (f.map().size() == 2 || f.map().size() == 3 && v.field("via") != null);
    }

    /** {@code [ckpt |-> c]}, or in alternating mode {@code [ckpt |-> c, aligned |-> b]}. */
    static boolean isBarrier(TlaValue v) {
        return v instanceof Fn f && v.field("ckpt") != null
                && (f.map().size() == 1 || f.map().size() == 2 && v.field("aligned") != null);
    }

    /** The messages of a channel value (a sequence) as tokens, head last. */
    static List<Token> tokens(TlaValue seq) {
        List<Token> out = new ArrayList<>();
        if (seq == null) {
            return out;
        }
        for (TlaValue m : seq.entries().values()) {
            out.add(0, new Token(of(m), isBarrier(m)));
        }
        return out;
    }

    /** The lines saying how {@code after} differs from {@code before}, under the name {@code name}. */
    static void diff(String name, TlaValue before, TlaValue after, int depth, List<String> notes) {
        if (after.equals(before)) {
            return;
        }
        if (before != null && depth < 3 && !isBag(after) && !isBag(before)
                && (before instanceof Fn || before instanceof Tuple) && before.getClass() == after.getClass()
                && before.entries().keySet().equals(after.entries().keySet()) && !after.entries().isEmpty()) {
            for (Map.Entry<TlaValue, TlaValue> e : after.entries().entrySet()) {
                diff(name + "[" + of(e.getKey()) + "]", before.entries().get(e.getKey()), e.getValue(), depth + 1, notes);
            }
            return;
        }
        String b = before == null ? "" : of(before);
        String a = of(after);
        notes.add(b.length() <= 14 && a.length() <= 30 && before != null ? name + ": " + b + " → " + a : name + " = " + a);
    }

    private static boolean isBag(TlaValue v) {
        return v instanceof Fn f && !f.map().isEmpty() && f.map().keySet().stream().allMatch(Compact::isRecord);
    }
}
