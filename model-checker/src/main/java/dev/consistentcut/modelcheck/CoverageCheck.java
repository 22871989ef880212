package dev.consistentcut.modelcheck;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * --coverage's verdict over the models run: every branch of a protocol module's actions that no
 * model evaluated fails the run unless an exemption gives the reason no behaviour can reach it;
 * an exemption that exempts nothing (its branch is reached, or no longer exists in a module the
 * run covered) fails it too, so that the file stays true, and so does an ambiguous one, whose
 * text starts more than one branch (source range) of its module under its action: it exempts
 * none of them, so that a row can never exempt a second branch unseen. Prints the report per
 * module and action and writes the table (module, action, location, text, models, count). Not
 * thread-safe.
 */
final class CoverageCheck {

    static final String TSV_HEADER = "module\taction\tlocation\ttext\tmodels\tcount";
    private static final int SHOWN = 60;

    private final CoverageTally tally;
    private final CoverageExemptions exemptions;

    CoverageCheck(CoverageTally tally, CoverageExemptions exemptions) {
        this.tally = tally;
        this.exemptions = exemptions;
    }

    /** Prints the report, writes the table; true when nothing is unreached without a reason and no exemption is stale. */
    boolean report(PrintStream out, Path tsv, Setup setup) {
        List<CoverageTally.Branch> all = tally.branches();
        write(tsv, all);
        Map<CoverageExemptions.Exemption, List<TlcCoverage.Span>> matched = matched(all);
        out.println();
        out.println("Coverage (TLC -coverage) of " + tally.models().size() + " model(s): per protocol module and action, the "
                + "distinct states each model that took the action found with it, then every branch no model evaluated:");
        String module = null;
        String action = null;
        int unreached = 0;
        int exempted = 0;
        for (CoverageTally.Branch b : all) {
            if (!b.module().equals(module)) {
                module = b.module();
                action = null;
                out.println(module);
            }
            if (!b.action().equals(action)) {
                action = b.action();
                out.println("  " + action + ": " + takenBy(tally.distinctStates(b.actionKey())));
            }
            if (b.reached()) {
                continue;
            }
            CoverageExemptions.Exemption e = exemptionOf(b, matched);
            if (e == null) {
                unreached++;
                out.println("    UNREACHED " + b.location() + "  " + shown(b.text()));
            } else {
                exempted++;
                out.println("    exempted  " + b.location() + "  " + shown(b.text()) + "  (" + e.where() + ")");
            }
        }
        List<String> stale = new ArrayList<>();
        List<String> ambiguous = new ArrayList<>();
        check(all, matched, stale, ambiguous);
        stale.forEach(s -> out.println("STALE EXEMPTION " + s));
        ambiguous.forEach(s -> out.println("AMBIGUOUS EXEMPTION " + s));
        Set<String> modules = all.stream().map(CoverageTally.Branch::module).collect(Collectors.toCollection(TreeSet::new));
        out.println("Coverage: " + all.size() + " branches of " + modules.size() + " protocol module(s); " + unreached
                + " unreached and not exempted, " + exempted + " exempted, " + stale.size() + " stale exemption(s), "
                + ambiguous.size() + " ambiguous exemption(s). Table: " + setup.shown(tsv));
        return unreached == 0 && stale.isEmpty() && ambiguous.isEmpty();
    }

    /** Per exemption, the distinct branches (source ranges) of this run it matches, under any of the actions it names. */
    private Map<CoverageExemptions.Exemption, List<TlcCoverage.Span>> matched(List<CoverageTally.Branch> all) {
        Map<CoverageExemptions.Exemption, List<TlcCoverage.Span>> matched = new LinkedHashMap<>();
        for (CoverageExemptions.Exemption e : exemptions.rows()) {
            matched.put(e, all.stream().filter(e::matches).map(CoverageTally.Branch::span).distinct().toList());
        }
        return matched;
    }

    /** The first exemption that matches the branch and no other, or null. */
    private static CoverageExemptions.Exemption exemptionOf(CoverageTally.Branch b,
            Map<CoverageExemptions.Exemption, List<TlcCoverage.Span>> matched) {
        return matched.entrySet().stream().filter(m -> m.getValue().size() == 1 && m.getKey().matches(b))
                .map(Map.Entry::getKey).findFirst().orElse(null);
    }

    /**
     * Adds, with why, the exemptions that exempt nothing (stale: no branch has the text, or every
     * branch that has it is reached) and those whose text starts several branches (ambiguous);
     * only for modules this run covered.
     */
    private static void check(List<CoverageTally.Branch> all, Map<CoverageExemptions.Exemption, List<TlcCoverage.Span>> matched,
            List<String> stale, List<String> ambiguous) {
        Set<String> covered = all.stream().map(CoverageTally.Branch::module).collect(Collectors.toSet());
        for (Map.Entry<CoverageExemptions.Exemption, List<TlcCoverage.Span>> m : matched.entrySet()) {
            CoverageExemptions.Exemption e = m.getKey();
            if (!covered.contains(e.moduleName())) {
                continue;
            }
            String row = e.where() + ": " + e.module() + " '" + e.branch() + "': ";
            List<CoverageTally.Branch> branches = all.stream().filter(e::matches).toList();
            if (m.getValue().isEmpty()) {
                stale.add(row + "no such branch (any more)");
            } else if (m.getValue().size() > 1) {
                String which = m.getValue().stream().map(s -> s.range() + " " + shown(branches.stream()
                        .filter(b -> b.span().equals(s)).findFirst().orElseThrow().text())).collect(Collectors.joining("; "));
                ambiguous.add(row + "the start of " + m.getValue().size() + " branches (" + which
                        + "): give more of the branch's text, so that it names one");
            } else if (branches.stream().allMatch(CoverageTally.Branch::reached)) {
                Set<String> by = new TreeSet<>();
                branches.forEach(b -> by.addAll(b.models()));
                stale.add(row + "reached by " + String.join(", ", by));
            }
        }
    }

    private static String takenBy(Map<String, Long> distinct) {
        if (distinct.isEmpty()) {
            return "taken by no model";
        }
        return distinct.entrySet().stream().map(x -> x.getKey() + " " + x.getValue()).collect(Collectors.joining(", "));
    }

    static String shown(String text) {
        return text.length() <= SHOWN ? text : text.substring(0, SHOWN) + "...";
    }

    private static void write(Path tsv, List<CoverageTally.Branch> all) {
        StringBuilder b = new StringBuilder(TSV_HEADER).append('\n');
        for (CoverageTally.Branch x : all) {
            b.append(String.join("\t", x.module(), x.action(), x.location(), shown(x.text()), String.join(",", x.models()),
                    Long.toString(x.count()))).append('\n');
        }
        try {
            Files.createDirectories(tsv.getParent());
            Files.writeString(tsv, b, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
