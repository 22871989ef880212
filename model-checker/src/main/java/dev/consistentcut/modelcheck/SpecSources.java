package dev.consistentcut.modelcheck;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
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
