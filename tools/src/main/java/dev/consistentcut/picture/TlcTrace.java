package dev.consistentcut.picture;

import dev.consistentcut.text.TlaValue;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The error trace in a TLC log ({@code model-check.sh} keeps them under
 * {@code target/model-check/logs/}): what was violated and every state of the behaviour, with the
 * action that led to it and its variables parsed as {@link TlaValue}s. Immutable.
 *
 * @param violation what TLC reported, e.g. "Invariant NoDoubleCountInv is violated.", or for a
 *     step that breaks an action property (a refinement's {@code [][Next]_vars}) "Action property
 *     line 85, col 17 to line 85, col 32 of module AbstractCheckpoint is violated."
 * @param violatedName the invariant or property, "deadlock", or "" if TLC did not name it (TLC
 *     names an action property by its place in the spec only: see {@link #named})
 * @param states the behaviour, state 1 first
 * @param loopsBackTo for a liveness counterexample, the state number the behaviour returns to for
 *     ever (or stutters in, for "Stuttering"); 0 if none
 */
public record TlcTrace(String violation, String violatedName, List<State> states, int loopsBackTo) {

    /**
     * One state of the trace.
     *
     * @param number TLC's state number
     * @param action the action that led here ("Initial predicate" for state 1)
     * @param text the state as TLC printed it (a TLA+ conjunction "/\ var = value")
     * @param vars the variables, in TLC's order
     */
    public record State(int number, String action, String text, Map<String, TlaValue> vars) {
    }

    private static final Pattern HEADER = Pattern.compile("^State (\\d+): <([A-Za-z_][A-Za-z0-9_]*)[^>]*>|^State (\\d+): <(Initial predicate)>");
    private static final Pattern BACK = Pattern.compile("^State (\\d+): Back to state (\\d+)|^State (\\d+): Stuttering|^(\\d+): Stuttering|^(\\d+): Back to state (\\d+)");
    private static final Pattern VIOLATION = Pattern.compile(
            "^Error: (Invariant ([A-Za-z0-9_]+) is violated\\.|Deadlock reached\\.|Temporal properties were violated\\.|"
                    + "(?:Temporal property|Property) ([A-Za-z0-9_]+) is violated\\.?|Action property (?:([A-Za-z0-9_]+)|.+) is violated\\.)");
    private static final Pattern PLACE = Pattern.compile("line (\\d+), col (\\d+) to line (\\d+), col (\\d+) of module ([A-Za-z0-9_]+)");

    /** Whether the last step broke an action property: TLC stops at the first step that does, with no lasso. */
    public boolean actionPropertyViolated() {
        return violation.startsWith("Action property");
    }

    /**
     * Where the violated action property is written, as TLC printed it: module, first line, first
     * column, last line, last column; empty for any other violation.
     */
    public Optional<Place> place() {
        Matcher m = PLACE.matcher(violation);
        if (!actionPropertyViolated() || !m.find()) {
            return Optional.empty();
        }
        return Optional.of(new Place(m.group(5), Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
                Integer.parseInt(m.group(3)), Integer.parseInt(m.group(4))));
    }

    /** A span of a TLA+ module, 1-based and inclusive as TLC prints it. */
    public record Place(String module, int fromLine, int fromCol, int toLine, int toCol) {
    }

    /** This trace with {@code name} as the violated name if TLC did not name it (the manifest knows it). */
    public TlcTrace named(String name) {
        return violatedName.isEmpty() ? new TlcTrace(violation, name, states, loopsBackTo) : this;
    }

    /** Reads the first error trace of {@code log}; IllegalArgumentException if it holds none. */
    public static TlcTrace read(Path log) {
        try {
            return parse(Files.readAllLines(log));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + log + ": " + e.getMessage(), e);
        }
    }

    /** Parses TLC output lines. */
    public static TlcTrace parse(List<String> lines) {
        String violation = null;
        String name = "";
        List<State> states = new ArrayList<>();
        int loop = 0;
        int i = 0;
        for (; i < lines.size() && violation == null; i++) {
            Matcher m = VIOLATION.matcher(lines.get(i));
            if (m.find()) {
                violation = m.group(1);
                name = m.group(2) != null ? m.group(2) : m.group(3) != null ? m.group(3) : m.group(4) != null ? m.group(4)
                        : violation.startsWith("Deadlock") ? "deadlock" : "";
            }
        }
        if (violation == null) {
            throw new IllegalArgumentException("no error trace in the TLC output (no \"Error: ... violated\" or deadlock)");
        }
        for (; i < lines.size(); i++) {
            String line = lines.get(i);
            Matcher back = BACK.matcher(line);
            if (back.find()) {
                String target = back.group(2) != null ? back.group(2) : back.group(6);
                String self = back.group(3) != null ? back.group(3) : back.group(4);
                loop = target != null ? Integer.parseInt(target) : self != null ? Integer.parseInt(self) - 1 : 0;
                break;
            }
            Matcher h = HEADER.matcher(line);
            if (!h.find()) {
                if (!states.isEmpty() && (line.startsWith("Finished") || line.matches("^[0-9,]+ states generated.*"))) {
                    break;
                }
                continue;
            }
            int number = Integer.parseInt(h.group(1) != null ? h.group(1) : h.group(3));
            String action = h.group(2) != null ? h.group(2) : h.group(4);
            StringBuilder text = new StringBuilder();
            int j = i + 1;
            for (; j < lines.size() && !lines.get(j).isBlank() && !lines.get(j).startsWith("State "); j++) {
                text.append(lines.get(j)).append('\n');
            }
            states.add(new State(number, action, text.toString(), variables(text.toString())));
            i = j - 1;
        }
        if (states.isEmpty()) {
            throw new IllegalArgumentException("TLC reported \"" + violation + "\" but printed no state");
        }
        return new TlcTrace(violation, name, List.copyOf(states), loop);
    }

    /** "/\ x = v" conjuncts (values may span lines) into a map. */
    static Map<String, TlaValue> variables(String text) {
        Map<String, TlaValue> vars = new LinkedHashMap<>();
        String body = text.strip();
        if (!body.startsWith("/\\")) {
            body = "/\\ " + body; // a spec with a single variable prints no conjunction
        }
        for (String part : body.split("(?m)^/\\\\ ")) {
            if (part.isBlank()) {
                continue;
            }
            int eq = part.indexOf(" = ");
            if (eq < 0) {
                throw new IllegalArgumentException("cannot read the state line '" + part.strip() + "'");
            }
            vars.put(part.substring(0, eq).strip(), TlaValue.parse(part.substring(eq + 3).strip()));
        }
        return vars;
    }
}
