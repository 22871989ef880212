package dev.consistentcut.modelcheck;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The pinned state counts. The manifest pins each exhaustive model's distinct states and depth
 * (columns 7, 8), as tlaplus/Examples does: a change of the spec's meaning then fails even when
 * every verdict stays the same. Counts are deterministic only with one TLC worker: with several, a
 * model that must fail stops after a varying number of states, and the Join models (SYMMETRY with a
 * VIEW: TLC's reduction is then not canonical) find a varying number of representatives. So
 * exhaustive models run with one worker unless --workers says otherwise, and the counts are
 * compared only then.
 *
 * <p>Not thread-safe: the report compares the counts on the main thread, in the manifest's order.
 */
final class Pins {

    /** Counts as found, for the table. */
    record Found(long states, long depth) {
    }

    private final Options options;
    private final Map<String, Model> models;
    private final Map<String, Found> fresh = new LinkedHashMap<>();
    private final Map<String, Found> twins = new LinkedHashMap<>();

    Pins(Options options, Map<String, Model> models) {
        this.options = options;
        this.models = models;
    }

    /**
     * Compares the run's counts with the pinned ones: the note for the table (or null), and the
     * result not ok when a pinned count changed (or, with --strict-counts, when none is pinned).
     * Remembers the counts of a run that did what the manifest says for --update-counts.
     */
    Result check(Model m, Result r, String[] note) {
        note[0] = null;
        if (m.simulated()) {
            return r;
        }
        if (options.ignoreCounts) {
            note[0] = "counts not compared (--ignore-counts)";
            return r;
        }
        if (options.exhaustiveWorkers() != 1) {
            note[0] = "counts not compared (" + options.workers + " workers)";
            return r;
        }
        // A liveness violation is found by TLC's periodic, time-driven liveness check: how many
        // states it has explored by then varies from run to run even with one worker (seen: 4,861
        // vs 6,178).
        if (m.expect().startsWith("prop:")) {
            note[0] = "counts not compared (liveness violation: found at a time-driven check)";
            return r;
        }
        // A module named ...Sample draws its initial states at random (TLC's Randomization, e.g.
        // MCAlignedIndInvSample) with TLC's seed, which the run fixes: with one worker the same seed
        // draws the same sample, so its counts are pinned like the others'. Another seed (--seed)
        // draws another sample: its counts are not compared.
        if (options.seedGiven && m.module().endsWith("Sample")) {
            note[0] = "counts not compared (--seed " + options.sampleSeed + ": another sample)";
            return r;
        }
        String base = m.pinOf();
        if (base != null && options.updateCounts) {
            // A shared pin is written through its base model only; after the run, update compares
            // this model's counts with the base's (new or pinned) ones.
            if (isNumber(r.states()) && isNumber(r.depth())) {
                twins.put(m.name(), new Found(Long.parseLong(r.states()), Long.parseLong(r.depth())));
            } else {
                twins.put(m.name(), new Found(-1, -1));
            }
            note[0] = "counts: " + r.states() + " states, depth " + r.depth() + " (pinned with " + base
                    + ": compared with its counts below)";
            return r;
        }
        if (r.ok() && isNumber(r.states()) && isNumber(r.depth())) {
            fresh.put(m.name(), new Found(Long.parseLong(r.states()), Long.parseLong(r.depth())));
        }
        if (options.updateCounts) {
            note[0] = "counts: " + r.states() + " states, depth " + r.depth() + " (to be written)";
            return r;
        }
        if (m.pinnedStates() == null || m.pinnedDepth() == null) {
            if (options.strictCounts) {
                note[0] = "counts not pinned (--strict-counts)";
                return r.withOk(false);
            }
            note[0] = "counts not pinned yet";
            return r;
        }
        if (!r.states().equals(m.pinnedStates().toString()) || !r.depth().equals(m.pinnedDepth().toString())) {
            note[0] = base != null
                    ? "COUNTS CHANGED: " + r.states() + " states, depth " + r.depth() + "; pinned with " + base + ": "
                            + m.pinnedStates() + ", depth " + m.pinnedDepth() + " (intended? ./model-check.sh --model "
                            + base + " --model " + m.name() + " --update-counts)"
                    : "COUNTS CHANGED: " + r.states() + " states, depth " + r.depth() + "; pinned " + m.pinnedStates()
                            + ", depth " + m.pinnedDepth() + " (intended? ./model-check.sh --update-counts)";
            return r.withOk(false);
        }
        note[0] = "counts as pinned" + (base != null ? " (with " + base + ")" : "");
        return r;
    }

    private static boolean isNumber(String s) {
        return s.matches("[0-9]+");
    }

    /**
     * --update-counts: writes the new counts into columns 7 and 8 of their rows, in the manifest
     * each row came from, leaving every other byte of the manifests as it was.
     *
     * @return false when a model sharing a pin found other counts than its base (nothing written)
     */
    boolean update(Setup setup, PrintStream out) {
        // A model that shares its base's pin must have found the base's counts: the new ones if the
        // base ran, else the pinned ones. Otherwise nothing is written and the run fails.
        boolean mismatch = false;
        for (Map.Entry<String, Found> t : twins.entrySet()) {
            String base = models.get(t.getKey()).pinOf();
            Found want = fresh.getOrDefault(base, new Found(orMinus(models.get(base).pinnedStates()),
                    orMinus(models.get(base).pinnedDepth())));
            if (!t.getValue().equals(want)) {
                out.println("--update-counts: " + t.getKey() + " found " + shown(t.getValue().states()) + " states, depth "
                        + shown(t.getValue().depth()) + ", but shares the pin of " + base + " (" + shown(want.states())
                        + ", depth " + shown(want.depth()) + "): its state space is not " + base
                        + "'s any more; fix the manifest (a pin of its own) or the model");
                mismatch = true;
            }
        }
        if (mismatch) {
            out.println("--update-counts: manifest unchanged");
            return false;
        }
        if (fresh.isEmpty()) {
            out.println("--update-counts: no exhaustive model ran as expected with one worker: manifest unchanged");
            return true;
        }
        Set<Path> files = new LinkedHashSet<>();
        for (String name : fresh.keySet()) {
            files.add(models.get(name).manifest());
        }
        List<String> written = new ArrayList<>();
        for (Path file : files) {
            rewrite(file);
            written.add(setup.shown(file));
        }
        out.println("--update-counts: wrote the counts of " + fresh.size() + " model(s) into " + String.join(", ", written));
        return true;
    }

    private static long orMinus(Long v) {
        return v == null ? -1 : v;
    }

    private static String shown(long v) {
        return v < 0 ? "" : Long.toString(v);
    }

    private void rewrite(Path file) {
        try {
            String text = Files.readString(file, StandardCharsets.UTF_8);
            boolean endsWithNewline = text.endsWith("\n");
            List<String> lines = new ArrayList<>(Arrays.asList(text.split("\n", -1)));
            if (endsWithNewline) {
                lines.remove(lines.size() - 1);
            }
            StringBuilder b = new StringBuilder();
            for (String line : lines) {
                String[] f = line.split("\t", -1);
                Found c = fresh.get(f[0]);
                if (line.matches("^\\s*(#.*)?$") || c == null) {
                    b.append(line).append('\n');
                    continue;
                }
                List<String> cols = new ArrayList<>(Arrays.asList(f));
                while (cols.size() < 6) {
                    cols.add("");
                }
                cols = new ArrayList<>(cols.subList(0, 6));
                cols.add(Long.toString(c.states()));
                cols.add(Long.toString(c.depth()));
                b.append(String.join("\t", cols)).append('\n');
            }
            Path next = file.resolveSibling(file.getFileName() + ".new");
            Files.writeString(next, b.toString(), StandardCharsets.UTF_8);
            Files.move(next, file, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UsageException("could not rewrite " + file);
        }
    }
}
