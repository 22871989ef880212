package dev.consistentcut.modelcheck;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The modules under the spec directory, by name, and the source text of a range of one. The
 * protocol modules are those that are neither models (MC...) nor trace specs (Trace...): the ones
 * whose branches the models must reach. Not thread-safe (files are read once, on first use).
 */
final class SpecSources {

    private final Map<String, Path> files;
    private final Map<String, List<String>> read = new HashMap<>();

    private SpecSources(Map<String, Path> files) {
        this.files = files;
    }

    /** Every .tla under {@code specDir}, at any depth. */
    static SpecSources of(Path specDir) {
        Map<String, Path> files = new TreeMap<>();
        if (Files.isDirectory(specDir)) {
            try (Stream<Path> s = Files.walk(specDir)) {
                s.filter(p -> p.getFileName().toString().endsWith(".tla") && Files.isRegularFile(p))
                        .sorted().forEach(p -> files.putIfAbsent(moduleName(p), p));
            } catch (IOException e) {
                throw new SetupException(specDir + ": cannot be read: " + e.getMessage());
            }
        }
        return new SpecSources(files);
    }

    private static String moduleName(Path p) {
        String n = p.getFileName().toString();
        return n.substring(0, n.length() - ".tla".length());
    }

    boolean isProtocol(String module) {
        return files.containsKey(module) && !module.startsWith("MC") && !module.startsWith("Trace");
    }

    /** The module's file, or null when it is not under the spec directory (a standard module). */
    Path file(String module) {
        return files.get(module);
    }

    /** The text of the range, its whitespace runs collapsed to one space ("" when not found). */
    String text(TlcCoverage.Span s) {
        List<String> lines = read.computeIfAbsent(s.module(), this::lines);
        StringBuilder b = new StringBuilder();
        for (int n = s.line(); n <= s.endLine() && n <= lines.size(); n++) {
            String l = lines.get(n - 1);
            int from = n == s.line() ? Math.min(s.col() - 1, l.length()) : 0;
            int to = n == s.endLine() ? Math.min(s.endCol(), l.length()) : l.length();
            b.append(l, Math.max(from, 0), Math.max(to, from)).append(' ');
        }
        return collapse(b.toString());
    }

    private static final Pattern CALL = Pattern.compile("([A-Za-z_][A-Za-z0-9_]*)(\\(.*\\))?", Pattern.DOTALL);

    /**
     * The top-level conjuncts of the operator that the range calls, when the range's text is a
     * call ({@code Name} or {@code Name(args)}) of an operator defined at the start of a line of
     * a protocol module (the range's own module first) whose body is a conjunction: its
     * {@code /\} items at the least indentation, no IF, CASE or disjunction above them (a
     * one-line body without IF, CASE or a junction: the expression itself). Each as the range
     * from the item's first character to the item's last line's end; a conjunct that is such a
     * call in turn adds its conjuncts. Empty otherwise.
     */
    List<TlcCoverage.Span> conjunctsOfCall(TlcCoverage.Span call) {
        List<TlcCoverage.Span> all = new ArrayList<>();
        conjunctsOfCall(call, all, 0);
        return all;
    }

    /** Adds the conjuncts of the call and, a conjunct that is itself such a call, its conjuncts (a few levels deep). */
    private void conjunctsOfCall(TlcCoverage.Span call, List<TlcCoverage.Span> all, int depth) {
        if (depth > 4) {
            return;
        }
        for (TlcCoverage.Span c : directConjunctsOfCall(call)) {
            if (!all.contains(c)) {
                all.add(c);
                conjunctsOfCall(c, all, depth + 1);
            }
        }
    }

    private List<TlcCoverage.Span> directConjunctsOfCall(TlcCoverage.Span call) {
        if (text(call).startsWith("/\\")) { // a conjunction evaluated whole: its items, each maybe a call
            return itemsOf(call);
        }
        Matcher m = CALL.matcher(text(call));
        if (!m.matches()) {
            return List.of();
        }
        List<String> modules = new ArrayList<>();
        modules.add(call.module());
        files.keySet().stream().filter(x -> !x.equals(call.module()) && isProtocol(x)).forEach(modules::add);
        Pattern def = Pattern.compile("^" + Pattern.quote(m.group(1)) + "(\\(.*\\))?\\s*==.*");
        for (String module : modules) {
            if (!isProtocol(module)) {
                continue;
            }
            List<String> lines = read.computeIfAbsent(module, this::lines);
            for (int d = 0; d < lines.size(); d++) {
                if (def.matcher(lines.get(d)).matches()) {
                    return conjuncts(module, lines, d);
                }
            }
        }
        return List.of();
    }

    /** The items of a conjunction list that starts at the range's start: each {@code /\\} in its column, to its line's end. */
    private List<TlcCoverage.Span> itemsOf(TlcCoverage.Span list) {
        List<String> lines = read.computeIfAbsent(list.module(), this::lines);
        List<TlcCoverage.Span> items = new ArrayList<>();
        for (int n = list.line(); n <= list.endLine() && n <= lines.size(); n++) {
            String l = lines.get(n - 1);
            int at = list.col() - 1;
            if (l.length() > at + 2 && l.startsWith("/\\", at) && (n == list.line() || indent(l) == at)) {
                int end = n == list.endLine() ? Math.min(list.endCol(), l.length()) : l.length();
                items.add(new TlcCoverage.Span(list.module(), n, at + 4, n, end));
            }
        }
        return items;
    }

    /** The top-level conjuncts of the definition on line index {@code d} (see {@link #conjunctsOfCall}). */
    private static List<TlcCoverage.Span> conjuncts(String module, List<String> lines, int d) {
        int end = d + 1; // the body: up to the next line that starts in column 1
        while (end < lines.size() && (lines.get(end).isEmpty() || Character.isWhitespace(lines.get(end).charAt(0)))) {
            end++;
        }
        while (end > d + 1 && lines.get(end - 1).isBlank()) { // not the blank lines before the next definition
            end--;
        }
        int k = Integer.MAX_VALUE;
        for (int n = d + 1; n < end; n++) {
            String l = lines.get(n);
            if (l.trim().startsWith("/\\")) {
                k = Math.min(k, indent(l));
            }
        }
        List<TlcCoverage.Span> items = new ArrayList<>();
        String head = lines.get(d);
        int after = head.indexOf("==") + 2;
        String rest = head.substring(after).trim();
        if (end == d + 1 && !rest.isEmpty()) { // a one-line body: the expression is its one conjunct
            if (!rest.contains("IF ") && !rest.startsWith("CASE") && !rest.contains("\\/") && !rest.contains("/\\")
                    && !rest.startsWith("LET")) {
                int col = head.indexOf(rest, after) + 1;
                items.add(new TlcCoverage.Span(module, d + 1, col, d + 1, col + rest.length() - 1));
            }
            return items;
        }
        if (k == Integer.MAX_VALUE || head.contains("/\\") || head.contains("\\/")) {
            return items;
        }
        for (int n = d + 1; n < end; n++) {
            String t = lines.get(n).trim();
            if (indent(lines.get(n)) < k && (t.startsWith("IF") || t.startsWith("CASE") || t.startsWith("\\/")
                    || t.startsWith("THEN") || t.startsWith("ELSE") || t.startsWith("[]"))) {
                return List.of();
            }
        }
        for (int n = d + 1; n < end; n++) {
            String l = lines.get(n);
            if (!l.trim().startsWith("/\\") || indent(l) != k) {
                continue;
            }
            int last = n; // the item runs until the next line at its indentation or less
            while (last + 1 < end && !lines.get(last + 1).isBlank() && indent(lines.get(last + 1)) > k) {
                last++;
            }
            items.add(new TlcCoverage.Span(module, n + 1, k + 4, last + 1, lines.get(last).length()));
        }
        return items;
    }

    private static int indent(String l) {
        int i = 0;
        while (i < l.length() && l.charAt(i) == ' ') {
            i++;
        }
        return i;
    }

    static String collapse(String text) {
        return text.replaceAll("\\s+", " ").trim();
    }

    private List<String> lines(String module) {
        Path p = files.get(module);
        try {
            return p == null ? List.of() : Files.readAllLines(p, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new SetupException(p + ": cannot be read: " + e.getMessage());
        }
    }
}
