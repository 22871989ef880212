package dev.consistentcut.modelcheck;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The coverage section TLC's {@code -coverage N} prints (TLC 2.18), parsed: per action
 * {@code <Name line L, col C to line L2, col C2 of module M (split)>: distinct:generated}, then one
 * line per sub-expression evaluated while checking it ({@code |}-prefixed when nested), with the
 * number of evaluations (a cost may follow after a colon; 0: never evaluated, e.g. an IF arm not
 * taken). Invariants and properties get a header without counts: they are not actions and are
 * skipped. TLC prints the section again every N minutes, each time with the counts so far: the
 * last one is the run's. Stateless.
 */
final class TlcCoverage {

    private static final String SPAN = "line (\\d+), col (\\d+) to line (\\d+), col (\\d+) of module (\\w+)";
    private static final Pattern HEADER = Pattern.compile("^<(\\S+) " + SPAN + "(?: \\(([0-9 ]+)\\))?>(?:: (\\d+):(\\d+))?$");
    private static final Pattern LINE = Pattern.compile("^\\s*(\\|*)" + SPAN + ": (\\d+)(?::\\d+)?$");
    private static final String START = "The coverage statistics";
    private static final String END = "End of statistics.";

    /** A source range of a module; line and column 1-based, the end inclusive. */
    record Span(String module, int line, int col, int endLine, int endCol) {
        /** L:C-L2:C2 */
        String range() {
            return line + ":" + col + "-" + endLine + ":" + endCol;
        }
    }

    /** One sub-expression evaluated while checking an action, and how often. */
    record Evaluated(Span span, int nesting, long count) {
    }

    /**
     * An action: its name, where it is defined, the part of the definition TLC split it into (a
     * disjunct under a quantifier, "L C L2 C2"; null when whole) and its counts in this run.
     */
    record Action(String name, Span definition, String split, long distinct, long generated, List<Evaluated> evaluated) {
        /** Identifies the action across models of the same modules. */
        String key() {
            return definition.module() + "!" + name + "@" + definition.range() + (split == null ? "" : "[" + split + "]");
        }

        /** The name as reports show it: with the split's range when TLC split the definition. */
        String label() {
            if (split == null) {
                return name;
            }
            String[] p = split.trim().split(" +");
            return p.length == 4 ? name + " [" + p[0] + ":" + p[1] + "-" + p[2] + ":" + p[3] + "]" : name + " [" + split + "]";
        }
    }

    private TlcCoverage() {
    }

    /** The actions of the log's last coverage section (none when TLC printed none). */
    static List<Action> parse(List<String> log) {
        List<Action> actions = new ArrayList<>();
        boolean in = false;
        String name = null;
        Span def = null;
        String split = null;
        long distinct = 0;
        long generated = 0;
        List<Evaluated> lines = null;
        for (String l : log) {
            if (l.startsWith(START)) {
                actions = new ArrayList<>();
                in = true;
                lines = null;
                continue;
            }
            if (!in) {
                continue;
            }
            if (l.startsWith(END)) {
                in = false;
            }
            Matcher h = HEADER.matcher(l);
            Matcher e = LINE.matcher(l);
            boolean header = h.matches();
            if (header || !in) {
                if (lines != null) {
                    actions.add(new Action(name, def, split, distinct, generated, List.copyOf(lines)));
                }
                lines = null;
                if (header && h.group(8) != null) { // an invariant's or property's header has no counts
                    name = h.group(1);
                    def = span(h, 2);
                    split = h.group(7);
                    distinct = Long.parseLong(h.group(8));
                    generated = Long.parseLong(h.group(9));
                    lines = new ArrayList<>();
                }
            } else if (lines != null && e.matches()) {
                lines.add(new Evaluated(span(e, 2), e.group(1).length(), Long.parseLong(e.group(7))));
            }
        }
        if (in && lines != null) { // a log cut short inside the section
            actions.add(new Action(name, def, split, distinct, generated, List.copyOf(lines)));
        }
        return actions;
    }

    private static Span span(Matcher m, int from) {
        return new Span(m.group(from + 4), Integer.parseInt(m.group(from)), Integer.parseInt(m.group(from + 1)),
                Integer.parseInt(m.group(from + 2)), Integer.parseInt(m.group(from + 3)));
    }
}
