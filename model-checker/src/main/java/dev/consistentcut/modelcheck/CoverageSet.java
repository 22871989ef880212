package dev.consistentcut.modelcheck;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The quick models that run with TLC's -coverage in the default run (the test command's), read
 * from {@code coverage-set.txt} in the spec directory: one model name per line, '#' starts a
 * comment. TLC's counting costs about a third more CPU per model, and a few dozen of the quick
 * models already reach every branch the whole quick tier reaches; the others then run without it.
 * Without the file every quick model counts. A run that counted every quick model (--quick
 * --coverage) proposes a new set ({@link #propose}), which is how the file is made and kept
 * true: a branch that only models outside the set reach fails the default run as unreached.
 * Immutable.
 */
final class CoverageSet {

    static final String FILE_NAME = "coverage-set.txt";

    private final Path file;
    private final Set<String> names;

    private CoverageSet(Path file, Set<String> names) {
        this.file = file;
        this.names = names;
    }

    /** The set in the spec directory, or null when it has no such file (every quick model counts). */
    static CoverageSet read(Setup setup) {
        Path file = setup.specDir().resolve(FILE_NAME);
        if (!Files.isRegularFile(file)) {
            return null;
        }
        Set<String> names = new LinkedHashSet<>();
        try {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                int hash = line.indexOf('#');
                String name = (hash < 0 ? line : line.substring(0, hash)).strip();
                if (!name.isEmpty()) {
                    names.add(name);
                }
            }
        } catch (IOException e) {
            throw new SetupException("cannot read " + setup.shown(file) + ": " + e.getMessage());
        }
        return new CoverageSet(file, names);
    }

    boolean contains(Model m) {
        return names.contains(m.name());
    }

    Path file() {
        return file;
    }

    /** The names that are not quick models of the manifests: the file is out of date. */
    List<String> notQuickModels(Map<String, Model> models) {
        List<String> wrong = new ArrayList<>();
        for (String n : names) {
            Model m = models.get(n);
            if (m == null) {
                wrong.add(n + " (no such model)");
            } else if (!m.tier().equals("quick")) {
                wrong.add(n + " (tier " + m.tier() + ", not quick)");
            }
        }
        return wrong;
    }

    /**
     * A set of models that reaches every branch some model reached, cheap first: repeatedly the
     * model with the most branches not yet reached per second of its run (plus one, for the JVM),
     * then without any model whose branches the others reach too. Sorted by name.
     *
     * @param reachedBy for each branch, the models that reached it (branches no model reached are ignored)
     * @param seconds each model's run time
     */
    static List<String> propose(Collection<Set<String>> reachedBy, Map<String, Long> seconds) {
        List<Set<String>> left = new ArrayList<>();
        reachedBy.stream().filter(s -> !s.isEmpty()).forEach(left::add);
        List<String> chosen = new ArrayList<>();
        while (!left.isEmpty()) {
            String best = null;
            double bestScore = -1;
            for (String m : new TreeSet<>(seconds.keySet())) {
                long n = left.stream().filter(s -> s.contains(m)).count();
                double score = n / (seconds.get(m) + 1.0);
                if (n > 0 && score > bestScore) {
                    best = m;
                    bestScore = score;
                }
            }
            if (best == null) {
                break; // a branch reached only by models without a run time: not in this run
            }
            String b = best;
            chosen.add(b);
            left.removeIf(s -> s.contains(b));
        }
        // Drop a model whose every branch another chosen model reaches too (the costliest first).
        chosen.sort((x, y) -> Long.compare(seconds.get(y), seconds.get(x)));
        Set<String> kept = new HashSet<>(chosen);
        for (String m : chosen) {
            Set<String> without = new HashSet<>(kept);
            without.remove(m);
            boolean needed = reachedBy.stream().anyMatch(s -> s.contains(m) && s.stream().noneMatch(without::contains));
            if (!needed) {
                kept.remove(m);
            }
        }
        return new ArrayList<>(new TreeSet<>(kept));
    }

    /** The file's text for a proposed set. */
    static String fileText(List<String> names) {
        StringBuilder b = new StringBuilder();
        b.append("# The quick models that run with TLC's -coverage in the default run (./run-tests.sh): together\n")
                .append("# they reach every branch the whole quick tier reaches, and the other quick models run without\n")
                .append("# -coverage's counting. ./model-check.sh --quick --coverage counts every quick model and proposes\n")
                .append("# a set in target/model-check/").append(FILE_NAME).append(": copy it here when a spec change leaves\n")
                .append("# a branch that only models outside this set reach.\n");
        names.forEach(n -> b.append(n).append('\n'));
        return b.toString();
    }
}
