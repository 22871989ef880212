package dev.consistentcut.replay;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Paths from an initial state that together take every edge (or visit every state) of a state
 * graph. Edges: a breadth-first tree from the initial states; then, for each state in
 * breadth-first order that still has an edge no path took, a path along the tree to it, extended
 * greedily by edges no path took until it reaches a state with none left. Every edge is taken by
 * some path, and the paths are few (a path ends only where no fresh edge is left). States: one
 * path along the tree to each of its leaves. Deterministic: the same graph gives the same paths.
 */
final class PathCover {

    enum Kind { EDGES, STATES }

    private final StateGraph g;
    private final int[] order;
    private final StateGraph.Edge[] parent;

    PathCover(StateGraph g) {
        this.g = g;
        int n = g.states.size();
        parent = new StateGraph.Edge[n];
        boolean[] seen = new boolean[n];
        int[] ord = new int[n];
        int count = 0;
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        for (int i : g.initial) {
            seen[i] = true;
            queue.add(i);
        }
        while (!queue.isEmpty()) {
            int u = queue.poll();
            ord[count++] = u;
            for (StateGraph.Edge e : g.out.get(u)) {
                if (!seen[e.to()]) {
                    seen[e.to()] = true;
                    parent[e.to()] = e;
                    queue.add(e.to());
                }
            }
        }
        order = Arrays.copyOf(ord, count);
    }

    /** States reachable from the initial states (all of TLC's graph, normally). */
    int reachable() {
        return order.length;
    }

    /** The initial state a path starts from and its edges. */
    record Path(int start, List<StateGraph.Edge> edges) {
    }

    void paths(Kind kind, Consumer<Path> sink) {
        if (kind == Kind.STATES) {
            BitSet inner = new BitSet();
            for (int u : order) {
                if (parent[u] != null) {
                    inner.set(parent[u].from());
                }
            }
            for (int u : order) {
                if (!inner.get(u)) {
                    sink.accept(treePath(u));
                }
            }
            return;
        }
        Map<StateGraph.Edge, Boolean> taken = new HashMap<>();
        int[] next = new int[g.states.size()];
        for (int u : order) {
            while (fresh(u, next, taken) != null) {
                Path p = treePath(u);
                List<StateGraph.Edge> edges = new ArrayList<>(p.edges());
                edges.forEach(e -> taken.put(e, true));
                int cur = u;
                StateGraph.Edge e;
                while ((e = fresh(cur, next, taken)) != null) {
                    taken.put(e, true);
                    edges.add(e);
                    cur = e.to();
                }
                sink.accept(new Path(p.start(), edges));
            }
        }
    }

    private StateGraph.Edge fresh(int u, int[] next, Map<StateGraph.Edge, Boolean> taken) {
        List<StateGraph.Edge> out = g.out.get(u);
        while (next[u] < out.size() && taken.containsKey(out.get(next[u]))) {
            next[u]++;
        }
        return next[u] < out.size() ? out.get(next[u]) : null;
    }

    private Path treePath(int u) {
        List<StateGraph.Edge> edges = new ArrayList<>();
        int cur = u;
        while (parent[cur] != null) {
            edges.add(parent[cur]);
            cur = parent[cur].from();
        }
        Collections.reverse(edges);
        return new Path(cur, edges);
    }
}
