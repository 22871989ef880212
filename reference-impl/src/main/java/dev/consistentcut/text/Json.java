package dev.consistentcut.text;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The little JSON that traces and the command line's results need, by hand (the engine has no
 * dependencies): writing strings, and parsing one line into {@code Map<String, Object>} (key order
 * kept), {@code List<Object>}, {@code String}, {@code Long}, {@code Boolean} or {@code null}.
 * Numbers must be integers: a trace holds ids, offsets and counts only. Stateless and thread-safe.
 */
public final class Json {

    private Json() {
    }

    /** {@code s}'s text as a JSON string literal, or {@code null}. */
    public static String str(Object s) {
        if (s == null) {
            return "null";
        }
        String text = s.toString();
        return quote(new StringBuilder(text.length() + 2), text).toString();
    }

    /** Appends {@code s} as a JSON string literal. */
    public static StringBuilder quote(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"');
    }

    /**
     * Parses one JSON value that fills all of {@code text}.
     *
     * @throws IllegalArgumentException naming the column (1-based) and what was expected there
     */
    public static Object parse(String text) {
        Parser p = new Parser(text);
        p.skipBlanks();
        Object v = p.value();
        p.skipBlanks();
        if (p.pos < text.length()) {
            throw p.error("end of input");
        }
        return v;
    }

    private static final class Parser {
        private final String s;
        private int pos;

        Parser(String s) {
            this.s = s;
        }

        Object value() {
            if (pos >= s.length()) {
                throw error("a value");
            }
            char c = s.charAt(pos);
            return switch (c) {
                case '{' -> object();
                case '[' -> array();
                case '"' -> string();
                case 't' -> literal("true", Boolean.TRUE);
                case 'f' -> literal("false", Boolean.FALSE);
                case 'n' -> literal("null", null);
                default -> {
                    if (c == '-' || (c >= '0' && c <= '9')) {
                        yield number();
                    }
                    throw error("a value");
                }
            };
        }

        private Map<String, Object> object() {
            Map<String, Object> m = new LinkedHashMap<>();
            pos++;
            skipBlanks();
            if (peek() == '}') {
                pos++;
                return m;
            }
            while (true) {
                skipBlanks();
                if (peek() != '"') {
                    throw error("a string key");
                }
                int keyAt = pos;
                String key = string();
                skipBlanks();
                expect(':');
                skipBlanks();
                if (m.containsKey(key)) {
                    pos = keyAt;
                    throw error("no second key \"" + key + "\"");
                }
                m.put(key, value());
                skipBlanks();
                if (peek() == ',') {
                    pos++;
                } else {
                    expect('}');
                    return m;
                }
            }
        }

        private List<Object> array() {
            List<Object> list = new ArrayList<>();
            pos++;
            skipBlanks();
            if (peek() == ']') {
                pos++;
                return list;
            }
            while (true) {
                skipBlanks();
                list.add(value());
                skipBlanks();
                if (peek() == ',') {
                    pos++;
                } else {
                    expect(']');
                    return list;
                }
            }
        }

        private String string() {
            StringBuilder b = new StringBuilder();
            pos++;
            while (true) {
                if (pos >= s.length()) {
                    throw error("a closing quote");
                }
                char c = s.charAt(pos++);
                if (c == '"') {
                    return b.toString();
                }
                if (c < 0x20) {
                    pos--;
                    throw error("no control character inside a string");
                }
                if (c != '\\') {
                    b.append(c);
                    continue;
                }
                if (pos >= s.length()) {
                    throw error("an escape");
                }
                char e = s.charAt(pos++);
                switch (e) {
                    case '"', '\\', '/' -> b.append(e);
                    case 'n' -> b.append('\n');
                    case 'r' -> b.append('\r');
                    case 't' -> b.append('\t');
                    case 'b' -> b.append('\b');
                    case 'f' -> b.append('\f');
                    case 'u' -> {
                        if (pos + 4 > s.length()) {
                            throw error("four hex digits");
                        }
                        try {
                            b.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
                        } catch (NumberFormatException x) {
                            throw error("four hex digits");
                        }
                        pos += 4;
                    }
                    default -> {
                        pos--;
                        throw error("a valid escape");
                    }
                }
            }
        }

        private Long number() {
            int start = pos;
            if (peek() == '-') {
                pos++;
            }
            while (pos < s.length() && Character.isDigit(s.charAt(pos))) {
                pos++;
            }
            if (pos < s.length() && (s.charAt(pos) == '.' || s.charAt(pos) == 'e' || s.charAt(pos) == 'E')) {
                throw error("an integer (a trace holds no fractions)");
            }
            try {
                return Long.parseLong(s.substring(start, pos));
            } catch (NumberFormatException x) {
                pos = start;
                throw error("an integer within 64 bits");
            }
        }

        private Object literal(String word, Object v) {
            if (!s.startsWith(word, pos)) {
                throw error("a value");
            }
            pos += word.length();
            return v;
        }

        private char peek() {
            return pos < s.length() ? s.charAt(pos) : '\0';
        }

        private void expect(char c) {
            if (peek() != c) {
                throw error("'" + c + "'");
            }
            pos++;
        }

        void skipBlanks() {
            while (pos < s.length() && (s.charAt(pos) == ' ' || s.charAt(pos) == '\t' || s.charAt(pos) == '\r')) {
                pos++;
            }
        }

        IllegalArgumentException error(String expected) {
            String found = pos < s.length() ? "'" + s.charAt(pos) + "'" : "the end";
            return new IllegalArgumentException("column " + (pos + 1) + ": expected " + expected + ", found " + found);
        }
    }
}
