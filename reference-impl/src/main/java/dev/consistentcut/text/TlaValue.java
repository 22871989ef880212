package dev.consistentcut.text;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A TLA+ value as TLC prints it in an error trace ({@code <<..>>}, {@code [f |-> v]},
 * {@code {..}}, {@code (k :> v @@ ..)}, strings, numbers, booleans, model values), parsed so a
 * picture can read the variables of each state. Functions, records and tuples keep TLC's order.
 * Immutable; safe to share between threads.
 */
public sealed interface TlaValue {

    /** An integer. */
    record Num(long value) implements TlaValue {
        @Override public String toString() { return Long.toString(value); }
    }

    /** A string, or a model value / boolean ({@code quoted = false}). */
    record Atom(String text, boolean quoted) implements TlaValue {
        @Override public String toString() { return quoted ? "\"" + text + "\"" : text; }
    }

    /** A tuple (sequence). */
    record Tuple(List<TlaValue> items) implements TlaValue {
        @Override public String toString() {
            return items.stream().map(Object::toString).collect(Collectors.joining(", ", "<<", ">>"));
        }
    }

    /** A set. */
    record SetOf(List<TlaValue> items) implements TlaValue {
        @Override public String toString() {
            return items.stream().map(Object::toString).collect(Collectors.joining(", ", "{", "}"));
        }
    }

    /** A function or record: record fields are keys of kind {@link Atom}. */
    record Fn(Map<TlaValue, TlaValue> map) implements TlaValue {
        @Override public String toString() {
            return map.entrySet().stream().map(e -> e.getKey() + " :> " + e.getValue())
                    .collect(Collectors.joining(" @@ ", "(", ")"));
        }
    }

    /** The value at {@code key} of a function, record or tuple (1-based), or null. */
    default TlaValue get(TlaValue key) {
        if (this instanceof Fn f) {
            return f.map().get(key);
        }
        if (this instanceof Tuple t && key instanceof Num n && n.value() >= 1 && n.value() <= t.items().size()) {
            return t.items().get((int) n.value() - 1);
        }
        return null;
    }

    /** The value of field {@code name}, or null. */
    default TlaValue field(String name) {
        TlaValue v = get(new Atom(name, false));
        return v != null ? v : get(new Atom(name, true));
    }

    /** The keys and values of a function, record or tuple (tuple keys 1..n); empty for others. */
    default Map<TlaValue, TlaValue> entries() {
        if (this instanceof Fn f) {
            return f.map();
        }
        Map<TlaValue, TlaValue> m = new LinkedHashMap<>();
        if (this instanceof Tuple t) {
            for (int i = 0; i < t.items().size(); i++) {
                m.put(new Num(i + 1), t.items().get(i));
            }
        }
        return m;
    }

    /** Parses one value filling {@code text}; throws IllegalArgumentException naming the position. */
    static TlaValue parse(String text) {
        Parser p = new Parser(text);
        TlaValue v = p.value();
        p.blanks();
        if (p.pos != text.length()) {
            throw p.error("end of value");
        }
        return v;
    }

    /** Recursive descent over TLC's value syntax. */
    final class Parser {
        private final String s;
        private int pos;

        Parser(String s) {
            this.s = s;
        }

        TlaValue value() {
            TlaValue first = single();
            blanks();
            if (!s.startsWith(":>", pos)) {
                return first;
            }
            // k :> v @@ k :> v ...: a function (also written without parentheses at top level)
            Map<TlaValue, TlaValue> m = new LinkedHashMap<>();
            TlaValue key = first;
            while (true) {
                expect(":>");
                m.put(key, single());
                blanks();
                if (!s.startsWith("@@", pos)) {
                    return new Fn(m);
                }
                expect("@@");
                key = single();
            }
        }

        private TlaValue single() {
            blanks();
            if (pos >= s.length()) {
                throw error("a value");
            }
            char c = s.charAt(pos);
            if (s.startsWith("<<", pos)) {
                pos += 2;
                List<TlaValue> items = list(">>");
                return new Tuple(items);
            }
            if (c == '{') {
                pos++;
                return new SetOf(list("}"));
            }
            if (c == '(') {
                pos++;
                TlaValue v = value();
                expect(")");
                return v;
            }
            if (c == '[') {
                pos++;
                Map<TlaValue, TlaValue> m = new LinkedHashMap<>();
                blanks();
                if (s.startsWith("]", pos)) {
                    pos++;
                    return new Fn(m);
                }
                while (true) {
                    blanks();
                    int start = pos;
                    while (pos < s.length() && (Character.isLetterOrDigit(s.charAt(pos)) || s.charAt(pos) == '_')) {
                        pos++;
                    }
                    if (start == pos) {
                        throw error("a field name");
                    }
                    String name = s.substring(start, pos);
                    expect("|->");
                    m.put(new Atom(name, false), value());
                    blanks();
                    if (s.startsWith("]", pos)) {
                        pos++;
                        return new Fn(m);
                    }
                    expect(",");
                }
            }
            if (c == '"') {
                StringBuilder b = new StringBuilder();
                pos++;
                while (pos < s.length() && s.charAt(pos) != '"') {
                    if (s.charAt(pos) == '\\' && pos + 1 < s.length()) {
                        pos++;
                    }
                    b.append(s.charAt(pos++));
                }
                expect("\"");
                return new Atom(b.toString(), true);
            }
            if (c == '-' || Character.isDigit(c)) {
                int start = pos++;
                while (pos < s.length() && Character.isDigit(s.charAt(pos))) {
                    pos++;
                }
                return new Num(Long.parseLong(s.substring(start, pos)));
            }
            if (Character.isLetter(c) || c == '_') {
                int start = pos;
                while (pos < s.length() && (Character.isLetterOrDigit(s.charAt(pos)) || s.charAt(pos) == '_')) {
                    pos++;
                }
                return new Atom(s.substring(start, pos), false);
            }
            throw error("a value");
        }

        private List<TlaValue> list(String close) {
            List<TlaValue> items = new ArrayList<>();
            blanks();
            if (s.startsWith(close, pos)) {
                pos += close.length();
                return items;
            }
            while (true) {
                items.add(value());
                blanks();
                if (s.startsWith(close, pos)) {
                    pos += close.length();
                    return items;
                }
                expect(",");
            }
        }

        private void expect(String token) {
            blanks();
            if (!s.startsWith(token, pos)) {
                throw error("'" + token + "'");
            }
            pos += token.length();
        }

        void blanks() {
            while (pos < s.length() && Character.isWhitespace(s.charAt(pos))) {
                pos++;
            }
        }

        IllegalArgumentException error(String expected) {
            String near = s.substring(pos, Math.min(s.length(), pos + 30));
            return new IllegalArgumentException("expected " + expected + " at column " + (pos + 1) + " near '" + near + "'");
        }
    }
}
