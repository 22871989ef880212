package dev.consistentcut.replay;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The state graph TLC writes with {@code -dump dot,actionlabels FILE}: one node per distinct state
 * (its label is the state's text; initial states are {@code style = filled}), one edge per
 * transition labelled with the action's name. Read once into states numbered 0..n-1 and
 * de-duplicated edges; stuttering edges (a state to itself: {@code Terminating}) are dropped, since
 * no engine step corresponds to them. Not thread-safe while loading; immutable afterwards.
 */
final class StateGraph {

    /** One transition of the spec: from state, to state, the action's name. */
    record Edge(int from, int to, String action) {
    }

    final List<SpecState> states = new ArrayList<>();
    final List<Integer> initial = new ArrayList<>();
    /** Per state, its outgoing edges (no self loops), in file order. */
    final List<List<Edge>> out = new ArrayList<>();
    int edgeCount;
    /** Self loops dropped (stuttering steps). */
    int stutterEdges;

    private final Map<String, Integer> ids = new HashMap<>();

    /**
     * @throws IOException when the file cannot be read
     * @throws IllegalArgumentException naming the line when it is not TLC's state graph
     */
    static StateGraph load(Path dot) throws IOException {
        StateGraph g = new StateGraph();
        Map<String, String> intern = new HashMap<>();
        Set<Edge> seen = new LinkedHashSet<>();
        List<String[]> pendingEdges = new ArrayList<>();
        try (BufferedReader in = Files.newBufferedReader(dot, StandardCharsets.UTF_8)) {
            String line;
            int lineNo = 0;
            while ((line = in.readLine()) != null) {
                lineNo++;
                int label = line.indexOf(" [label=\"");
                if (label < 0) {
                    continue; // graph header, cluster, legend
                }
                String head = line.substring(0, label).trim();
                int arrow = head.indexOf(" -> ");
                try {
                    if (arrow >= 0) {
                        String action = line.substring(label + 9, line.indexOf('"', label + 9));
                        pendingEdges.add(new String[] {head.substring(0, arrow).trim(), head.substring(arrow + 4).trim(), action});
                    } else if (!g.ids.containsKey(head) && isNumber(head)) {
                        int end = line.lastIndexOf('"');
                        String text = unescape(line.substring(label + 9, end));
                        int id = g.states.size();
                        g.ids.put(head, id);
                        g.states.add(SpecState.parse(text, intern));
                        g.out.add(new ArrayList<>());
                        if (line.substring(end).contains("filled")) {
                            g.initial.add(id);
                        }
                    }
                } catch (RuntimeException e) {
                    throw new IllegalArgumentException(dot + " line " + lineNo + ": " + e.getMessage(), e);
                }
            }
        }
        for (String[] e : pendingEdges) {
            Integer from = g.ids.get(e[0]);
            Integer to = g.ids.get(e[1]);
            if (from == null || to == null) {
                throw new IllegalArgumentException(dot + ": an edge names a state that is not in the file: " + e[0] + " -> " + e[1]);
            }
            if (from.equals(to)) {
                g.stutterEdges++;
                continue;
            }
            Edge edge = new Edge(from, to, sharedStep(e[2]));
            if (seen.add(edge)) {
                g.out.get(from).add(edge);
                g.edgeCount++;
            }
        }
        if (g.initial.isEmpty()) {
            throw new IllegalArgumentException(dot + ": no initial state (a node with style = filled): not TLC's -dump dot output?");
        }
        return g;
    }

    /**
     * The step's name as the other modes' specs give it: AtLeastOnceCheckpoint.tla frames the
     * shared steps of Dataflow.tla for its own variable, so TLC labels them with a suffix
     * ({@code TriggerCheckpointAtLeastOnce}); they are the same steps (docs/vocabulary.md).
     */
    static String sharedStep(String action) {
        return action.endsWith("AtLeastOnce") ? action.substring(0, action.length() - "AtLeastOnce".length()) : action;
    }

    private static boolean isNumber(String s) {
        return !s.isEmpty() && s.chars().allMatch(c -> c == '-' || Character.isDigit(c));
    }

    /** DOT string escapes as TLC writes them: backslash-escaped quotes and backslashes, {@code \n}. */
    static String unescape(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                char n = s.charAt(++i);
                b.append(n == 'n' ? '\n' : n);
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }
}
