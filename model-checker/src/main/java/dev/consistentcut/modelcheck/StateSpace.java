package dev.consistentcut.modelcheck;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The state space a model explores, as a key: two models with one key explore the same states.
 * The state space of a model is its module's and its config's: the config without comments and
 * without its INVARIANT(S)/PROPERTY(IES) sections (what TLC checks, not what it explores); a module
 * that only EXTENDS one MC module and modules declaring no VARIABLE or CONSTANT (as
 * MCAlignedCheckpointRefinement extends MCAlignedCheckpoint with the refinement mapping) counts as
 * that MC module. Not thread-safe (it caches); used on the main thread before any TLC starts.
 */
final class StateSpace {

    private static final Pattern CHECKS = Pattern.compile("^\\s*(INVARIANTS?|PROPERTY|PROPERTIES)(\\s|$).*");
    private static final Pattern SECTION = Pattern.compile(
            "^\\s*(INIT|NEXT|SPECIFICATION|CONSTANTS?|CONSTRAINTS?|ACTION_CONSTRAINTS?|SYMMETRY|VIEW|CHECK_DEADLOCK)(\\s|$).*");
    private static final Pattern HEADER_FOOTER_BLANK = Pattern.compile("^\\s*(-{4,}.*MODULE.*|={4,}.*)?\\s*$");
    private static final Pattern EXTENDS = Pattern.compile("^\\s*EXTENDS\\s+(.*)$");
    private static final Pattern DECLARES = Pattern.compile("^\\s*(VARIABLES?|CONSTANTS?)(\\s|$).*");

    /** Every module under the spec directory by name (the first in sorted path order). */
    private final Map<String, Path> modules = new HashMap<>();
    private final Map<String, String> moduleCache = new HashMap<>();

    StateSpace(Path specDir) {
        try (Stream<Path> s = Files.walk(specDir)) {
            s.filter(p -> p.getFileName().toString().endsWith(".tla")).sorted()
                    .forEach(p -> modules.putIfAbsent(p.getFileName().toString().replaceFirst("\\.tla$", ""), p));
        } catch (IOException e) {
            throw new SetupException(specDir + ": cannot be read: " + e.getMessage());
        }
    }

    /** The key of a model's state space. */
    String key(Model m) {
        Path module = m.folder().resolve(m.module() + ".tla");
        String space = moduleCache.computeIfAbsent(m.module(), k -> stateSpaceModule(k, Files.isRegularFile(module) ? module : modules.get(k)));
        return space + ":" + configKey(m.configFile());
    }

    /** The module whose state space {@code name} explores. */
    private String stateSpaceModule(String name, Path file) {
        if (file == null) {
            return name;
        }
        List<String> body = new ArrayList<>();
        boolean inComment = false;
        for (String l : lines(file)) {
            String line = l.replaceAll("\\\\\\*.*", "");
            if (line.contains("(*")) {
                inComment = true;
            }
            if (!inComment && !HEADER_FOOTER_BLANK.matcher(line).matches()) {
                body.add(line);
            }
            if (line.contains("*)")) {
                inComment = false;
            }
        }
        Matcher m = body.size() == 1 ? EXTENDS.matcher(body.get(0)) : null;
        if (m == null || !m.matches()) {
            return name;
        }
        String[] extended = m.group(1).trim().split("[, ]+");
        String first = extended[0];
        if (!first.startsWith("MC")) {
            return name;
        }
        for (int k = 1; k < extended.length; k++) {
            Path other = modules.get(extended[k]);
            if (other != null && lines(other).stream().anyMatch(x -> DECLARES.matcher(x).matches())) {
                return name;
            }
        }
        return first;
    }

    /** A config's text without comments and without its INVARIANT(S)/PROPERTY(IES) sections. */
    static String configKey(Path config) {
        StringBuilder key = new StringBuilder();
        boolean skip = false;
        for (String l : lines(config)) {
            String line = l.replaceAll("\\\\\\*.*", "");
            if (CHECKS.matcher(line).matches()) {
                skip = true;
                continue;
            }
            if (SECTION.matcher(line).matches()) {
                skip = false;
            }
            if (skip) {
                continue;
            }
            line = line.replaceAll("\\s+", " ").strip();
            if (!line.isEmpty()) {
                key.append('|').append(line);
            }
        }
        return key.toString();
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return List.of();
        }
    }
}
