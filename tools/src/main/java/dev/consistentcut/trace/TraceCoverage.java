package dev.consistentcut.trace;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Coverage over a set of validated traces: per trace module (the header's mode), how
 * often each spec action fired and by which branch, and which branches of the module's table no
 * trace reached. The branches are named by the trace modules ({@code ProtocolBranch} and
 * {@code SharedBranch}, spec/traces/TraceValidation.tla, "Coverage"); TLC prints them as it matches
 * the events ({@link TraceValidator.Coverage}).
 */
final class TraceCoverage {

    private TraceCoverage() {
    }

    /** Mode, then action, then branch, to count; every branch of each mode's table present (0 if unreached). */
    static Map<String, Map<String, Map<String, Integer>>> aggregate(List<TraceValidator.Verdict> verdicts) {
        Map<String, Map<String, Map<String, Integer>>> all = new TreeMap<>();
        for (TraceValidator.Verdict v : verdicts) {
            TraceValidator.Coverage c = v.coverage();
            if (c == null || c.mode().isEmpty()) {
                continue;
            }
            Map<String, Map<String, Integer>> mode = all.computeIfAbsent(c.mode(), k -> new TreeMap<>());
            for (List<String> p : c.table()) {
                mode.computeIfAbsent(p.get(0), k -> new TreeMap<>()).putIfAbsent(p.get(1), 0);
            }
            c.counts().forEach((action, branches) -> branches.forEach((b, n) ->
                    mode.computeIfAbsent(action, k -> new TreeMap<>()).merge(b, n, Integer::sum)));
        }
        return all;
    }

    /** Traces per mode that TLC ran to a verdict with coverage. */
    private static Map<String, Integer> traces(List<TraceValidator.Verdict> verdicts) {
        Map<String, Integer> n = new TreeMap<>();
        for (TraceValidator.Verdict v : verdicts) {
            if (v.coverage() != null && !v.coverage().mode().isEmpty()) {
                n.merge(v.coverage().mode(), 1, Integer::sum);
            }
        }
        return n;
    }

    /** The report on {@code out}: per mode and action the count, per branch the count, then the unreached branches. */
    static void report(List<TraceValidator.Verdict> verdicts, PrintStream out) {
        Map<String, Map<String, Map<String, Integer>>> all = aggregate(verdicts);
        if (all.isEmpty()) {
            return;
        }
        Map<String, Integer> traces = traces(verdicts);
        out.println("coverage: spec actions TLC took while matching the traces, by branch (spec/traces/Trace*.tla ProtocolBranch):");
        List<String> unreached = new ArrayList<>();
        for (var mode : all.entrySet()) {
            out.printf("  %s (%d traces):%n", mode.getKey(), traces.getOrDefault(mode.getKey(), 0));
            for (var action : mode.getValue().entrySet()) {
                int total = action.getValue().values().stream().mapToInt(Integer::intValue).sum();
                out.printf("    %-26s %6d%n", action.getKey(), total);
                for (var b : action.getValue().entrySet()) {
                    out.printf("      %6d  %s%s%n", b.getValue(), b.getKey(), b.getValue() == 0 ? "   <- UNREACHED" : "");
                    if (b.getValue() == 0) {
                        unreached.add(mode.getKey() + ": " + action.getKey() + ": " + b.getKey());
                    }
                }
            }
        }
        out.println("coverage: " + (unreached.isEmpty() ? "every branch reached" : unreached.size() + " branches reached by no trace:"));
        unreached.forEach(u -> out.println("  unreached: " + u));
        long prefixes = verdicts.stream().filter(v -> v.outcome() == TraceValidator.Outcome.ACCEPTED && v.coverage() != null
                && !v.coverage().endsWithRunEnded()).count();
        if (prefixes > 0) {
            out.println("coverage: " + prefixes + " accepted traces do not end with RunEnded (prefixes of runs: their end unchecked)");
        }
    }

    /** The same as TSV: mode, action, branch, count (a header line first). */
    static void writeTsv(List<TraceValidator.Verdict> verdicts, Path file) {
        StringBuilder b = new StringBuilder("mode\taction\tbranch\tcount\n");
        aggregate(verdicts).forEach((mode, actions) -> actions.forEach((action, branches) -> branches.forEach((br, n) ->
                b.append(mode).append('\t').append(action).append('\t').append(br).append('\t').append(n).append('\n'))));
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Files.writeString(file, b.toString(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /** The branches of {@code mode} no trace reached. */
    static Set<String> unreached(List<TraceValidator.Verdict> verdicts, String mode) {
        Set<String> u = new TreeSet<>();
        aggregate(verdicts).getOrDefault(mode, Map.of()).forEach((a, bs) -> bs.forEach((b, n) -> {
            if (n == 0) {
                u.add(a + ": " + b);
            }
        }));
        return u;
    }
}
