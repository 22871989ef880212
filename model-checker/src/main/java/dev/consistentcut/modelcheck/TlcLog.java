package dev.consistentcut.modelcheck;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a model's verdict from TLC's exit code AND the name TLC reports, never from "TLC returned
 * 0": an expected failure that fails for another reason (a parse error, another invariant) is a
 * failed check. TLC exit codes: 0 ok, 11 deadlock, 12 invariant, 13 property, 75 evaluation
 * error, 150 parse/semantic error, 151-153 and 255 config errors.
 */
final class TlcLog {

    private static final Pattern DISTINCT = Pattern.compile("([0-9,]+) distinct states found");
    private static final Pattern GENERATED = Pattern.compile("The number of states generated: ([0-9,]+)");
    private static final Pattern CHECKED = Pattern.compile("^Progress: ([0-9,]+) states checked");
    private static final Pattern DEPTH = Pattern.compile("depth of the complete state graph search is ([0-9]+)");
    private static final Pattern STATE = Pattern.compile("^State ([0-9]+):");
    private static final Pattern INVARIANT = Pattern.compile("Invariant ([A-Za-z0-9_]+) is violated");
    private static final Pattern PROPERTY = Pattern.compile("(?:Temporal property|Property) ([A-Za-z0-9_]+) is violated");
    private static final Pattern VERDICT = Pattern.compile(
            "No error has been found|Model checking completed|The number of states generated|^Progress: [0-9,]+ states checked");
    private static final Pattern ERROR = Pattern.compile("^Error:|Error: ");

    private TlcLog() {
    }

    static List<String> lines(Path log) {
        try {
            return Files.readAllLines(log, StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            return List.of();
        }
    }

    /** The last match's group 1 in the log, without thousands separators, or null. */
    static String last(List<String> log, Pattern p) {
        String found = null;
        for (String l : log) {
            Matcher m = p.matcher(l);
            while (m.find()) {
                found = m.group(1).replace(",", "");
            }
        }
        return found;
    }

    private static String first(List<String> log, Pattern p) {
        for (String l : log) {
            Matcher m = p.matcher(l);
            if (m.find()) {
                return m.group(1);
            }
        }
        return null;
    }

    /** Distinct states, else states generated, else (simulation) states checked; or "-". */
    static String states(List<String> log) {
        String s = last(log, DISTINCT);
        if (s == null) {
            s = last(log, GENERATED);
        }
        if (s == null) {
            s = last(log, CHECKED);
        }
        return s == null ? "-" : s;
    }

    /** The depth of the search, else the longest error trace's; or "-". */
    static String depth(List<String> log) {
        String d = last(log, DEPTH);
        if (d == null) {
            long max = -1;
            for (String l : log) {
                Matcher m = STATE.matcher(l);
                if (m.find()) {
                    max = Math.max(max, Long.parseLong(m.group(1)));
                }
            }
            d = max < 0 ? null : Long.toString(max);
        }
        return d == null ? "-" : d;
    }

    /** The result of a TLC run that exited {@code exit}, on a model whose config is {@code config}. */
    static String result(int exit, List<String> log, Path config) {
        String r = switch (exit) {
            case 0 -> "pass";
            case 11 -> "deadlock";
            case 12 -> "inv:" + orUnknown(first(log, INVARIANT));
            case 13 -> "prop:" + orUnknown(first(log, PROPERTY));
            case 75 -> "error:evaluation";
            case 150 -> "error:parse";
            case 151, 152, 153 -> "error:config-" + exit;
            case 255 -> "error:config";
            default -> "error:exit-" + exit;
        };
        if (r.equals("prop:?")) {
            // TLC 2.18 says "Temporal properties were violated" without naming one. The name is
            // then known only when the cfg checks exactly one property; with several it stays "?"
            // (and an expected prop:X fails): give each property that must fail a cfg of its own.
            List<String> props = properties(config);
            if (props.size() == 1) {
                r = "prop:" + props.get(0);
            }
        }
        // A pass must also say so: guard against a TLC that exits 0 without checking anything.
        if (r.equals("pass") && log.stream().noneMatch(l -> VERDICT.matcher(l).find())) {
            r = "error:no-verdict";
        }
        return r;
    }

    private static String orUnknown(String s) {
        return s == null ? "?" : s;
    }

    /** The names listed under PROPERTY/PROPERTIES in a TLC config file, sorted. */
    static List<String> properties(Path config) {
        TreeSet<String> names = new TreeSet<>();
        for (CfgClaims.Claim c : CfgClaims.ofConfig(config)) {
            if (c.kind().equals("prop")) {
                names.add(c.name());
            }
        }
        return new ArrayList<>(names);
    }

    /** TLC's output from its first error (at most 150 lines), or its last 40 lines when it reported none. */
    static List<String> fromFirstError(List<String> log) {
        for (int k = 0; k < log.size(); k++) {
            if (ERROR.matcher(log.get(k)).find()) {
                return log.subList(k, Math.min(log.size(), k + 150));
            }
        }
        return tail(log, 40);
    }

    static List<String> tail(List<String> log, int n) {
        return log.subList(Math.max(0, log.size() - n), log.size());
    }
}
