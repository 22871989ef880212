package dev.consistentcut.graph;

import dev.consistentcut.operator.Operator;
import dev.consistentcut.source.SourceLog;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The logical job: sources, operators (a sink is an operator without out-edges) and the edges
 * between them. Built and validated by {@link Builder}; {@link PhysicalGraph#of} expands it into
 * task instances and channels. Immutable and thread-safe (operator factories are called by the
 * runtimes, one instance per task instance and restore).
 */
public final class JobGraph {

    /**
     * A node: a source with one log per instance (its parallelism is the number of logs), or an
     * operator with a parallelism and a factory that makes a fresh operator in its initial state.
     */
    public record Node(String name, NodeKind kind, int parallelism, List<SourceLog> logs,
                       Supplier<? extends Operator> operatorFactory) {
    }

    /** An edge from node {@code from} to node {@code to}; each physical channel of it holds at most {@code capacity} records. */
    public record Edge(String from, String to, Partitioning partitioning, int capacity) {
        public String name() {
            return from + "->" + to;
        }
    }

    private final List<Node> nodes;
    private final Map<String, Node> byName;
    private final List<Edge> edges;
    private final int maxParallelism;

    private JobGraph(List<Node> nodes, List<Edge> edges, int maxParallelism) {
        this.maxParallelism = maxParallelism;
        this.nodes = List.copyOf(nodes);
        this.edges = List.copyOf(edges);
        Map<String, Node> map = new LinkedHashMap<>();
        for (Node n : nodes) {
            map.put(n.name(), n);
        }
        this.byName = Collections.unmodifiableMap(map);
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * The number of key groups ({@link KeyGroups}): fixed for the life of a job, since a key's
     * group depends on it; every operator with a HASH in-edge has at most this parallelism.
     */
    public int maxParallelism() {
        return maxParallelism;
    }

    /**
     * This graph with operator {@code node} at {@code parallelism} instead: the graph a rescaled
     * restore runs. Validated as {@link Builder#build} validates (a FORWARD edge of the operator
     * then needs the same parallelism on its other side, as it must).
     */
    public JobGraph withParallelism(String node, int parallelism) {
        Node old = node(node);
        if (old.kind() != NodeKind.OPERATOR) {
            throw new IllegalArgumentException("'" + node + "' is a source: its parallelism is its number of logs");
        }
        Builder b = builder().maxParallelism(maxParallelism);
        for (Node n : nodes) {
            b.nodes.add(n.name().equals(node)
                    ? new Node(n.name(), n.kind(), parallelism, n.logs(), n.operatorFactory()) : n);
        }
        b.edges.addAll(edges);
        return b.build();
    }

    /** Nodes in declaration order. */
    public List<Node> nodes() {
        return nodes;
    }

    /** Edges in declaration order. */
    public List<Edge> edges() {
        return edges;
    }

    public Node node(String name) {
        Node n = byName.get(name);
        if (n == null) {
            throw new IllegalArgumentException("unknown node '" + name + "'");
        }
        return n;
    }

    /** The in-edges of {@code node} in declaration order: edge {@code i} is the operator's logical input {@code i}. */
    public List<Edge> inEdges(String node) {
        return edges.stream().filter(e -> e.to().equals(node)).toList();
    }

    /** The out-edges of {@code node} in declaration order. */
    public List<Edge> outEdges(String node) {
        return edges.stream().filter(e -> e.from().equals(node)).toList();
    }

    /**
     * Collects declarations and validates them all in {@link #build()}, which throws an
     * {@link IllegalArgumentException} whose message names the offending node or edge. Not
     * thread-safe.
     */
    public static final class Builder {
        private final List<Node> nodes = new ArrayList<>();
        private final List<Edge> edges = new ArrayList<>();
        private int defaultCapacity = 16;
        private int maxParallelism = KeyGroups.DEFAULT_MAX_PARALLELISM;

        private Builder() {
        }

        /** The job's number of key groups (default {@value KeyGroups#DEFAULT_MAX_PARALLELISM}); see {@link JobGraph#maxParallelism}. */
        public Builder maxParallelism(int maxParallelism) {
            KeyGroups.checkMaxParallelism(maxParallelism);
            this.maxParallelism = maxParallelism;
            return this;
        }

        /** A source with one instance per log: instance {@code i} reads {@code logs[i]}. */
        public Builder source(String name, SourceLog... logs) {
            Objects.requireNonNull(logs, "logs");
            nodes.add(new Node(name, NodeKind.SOURCE, logs.length, Arrays.asList(logs.clone()), null));
            return this;
        }

        /** An operator with {@code parallelism} instances, each made by {@code factory}. */
        public Builder operator(String name, int parallelism, Supplier<? extends Operator> factory) {
            nodes.add(new Node(name, NodeKind.OPERATOR, parallelism, List.of(), factory));
            return this;
        }

        /** The capacity of edges declared without one (default 16). */
        public Builder defaultCapacity(int capacity) {
            if (capacity < 1) {
                throw new IllegalArgumentException("default capacity must be >= 1, got " + capacity);
            }
            this.defaultCapacity = capacity;
            return this;
        }

        public Builder edge(String from, String to, Partitioning partitioning) {
            return edge(from, to, partitioning, defaultCapacity);
        }

        public Builder edge(String from, String to, Partitioning partitioning, int capacity) {
            edges.add(new Edge(from, to, partitioning, capacity));
            return this;
        }

        /** Validates every declaration and returns the graph. */
        public JobGraph build() {
            Map<String, Node> byName = validateNodes();
            validateEdges(byName);
            validateConnections(byName);
            rejectCycles(byName);
            validateKeyed(byName);
            return new JobGraph(nodes, edges, maxParallelism);
        }

        private Map<String, Node> validateNodes() {
            if (nodes.isEmpty()) {
                throw new IllegalArgumentException("job graph has no nodes");
            }
            Map<String, Node> byName = new HashMap<>();
            for (Node n : nodes) {
                String name = n.name();
                if (name == null || name.isBlank()) {
                    throw new IllegalArgumentException("a " + kindName(n) + " has a blank name");
                }
                if (name.contains("#") || name.contains("->") || !name.equals(name.strip())) {
                    throw new IllegalArgumentException(kindName(n) + " '" + name
                            + "': a name may not contain '#' or '->' or start or end with blanks (they build task and channel ids)");
                }
                if (byName.put(name, n) != null) {
                    throw new IllegalArgumentException("duplicate node name '" + name + "'");
                }
                if (n.kind() == NodeKind.SOURCE) {
                    if (n.logs().isEmpty()) {
                        throw new IllegalArgumentException("source '" + name + "': parallelism must be >= 1, got 0 (give it at least one log)");
                    }
                    for (int i = 0; i < n.logs().size(); i++) {
                        if (n.logs().get(i) == null) {
                            throw new IllegalArgumentException("source '" + name + "': log " + i + " is null");
                        }
                    }
                } else {
                    if (n.parallelism() < 1) {
                        throw new IllegalArgumentException("operator '" + name + "': parallelism must be >= 1, got " + n.parallelism());
                    }
                    if (n.operatorFactory() == null) {
                        throw new IllegalArgumentException("operator '" + name + "': operator factory is null");
                    }
                }
            }
            return byName;
        }

        private void validateEdges(Map<String, Node> byName) {
            Set<String> seen = new HashSet<>();
            for (Edge e : edges) {
                if (e.partitioning() == null) {
                    throw new IllegalArgumentException("edge " + e.name() + ": partitioning is null");
                }
                Node from = byName.get(e.from());
                Node to = byName.get(e.to());
                if (from == null) {
                    throw new IllegalArgumentException("edge " + e.name() + ": unknown node '" + e.from() + "'");
                }
                if (to == null) {
                    throw new IllegalArgumentException("edge " + e.name() + ": unknown node '" + e.to() + "'");
                }
                if (to.kind() == NodeKind.SOURCE) {
                    throw new IllegalArgumentException("edge " + e.name() + ": '" + e.to() + "' is a source and cannot have inputs");
                }
                if (!seen.add(e.name())) {
                    throw new IllegalArgumentException("duplicate edge " + e.name());
                }
                if (e.capacity() < 1) {
                    throw new IllegalArgumentException("edge " + e.name() + ": capacity must be >= 1, got " + e.capacity());
                }
                if (e.partitioning() == Partitioning.FORWARD && from.parallelism() != to.parallelism()) {
                    throw new IllegalArgumentException("edge " + e.name() + ": FORWARD needs equal parallelism, '"
                            + e.from() + "' has " + from.parallelism() + " and '" + e.to() + "' has " + to.parallelism());
                }
            }
        }

        private void validateConnections(Map<String, Node> byName) {
            for (Node n : nodes) {
                long in = edges.stream().filter(e -> e.to().equals(n.name())).count();
                long out = edges.stream().filter(e -> e.from().equals(n.name())).count();
                if (n.kind() == NodeKind.SOURCE && out == 0) {
                    throw new IllegalArgumentException("source '" + n.name() + "' is dangling: it has no out-edge");
                }
                if (n.kind() == NodeKind.OPERATOR) {
                    if (in == 0) {
                        throw new IllegalArgumentException("operator '" + n.name() + "' is dangling: it has no in-edge");
                    }
                    int arity = n.operatorFactory().get().inputArity();
                    if (arity > 0 && arity != in) {
                        throw new IllegalArgumentException("operator '" + n.name() + "' needs " + arity
                                + " in-edges, has " + in);
                    }
                }
            }
        }

        /** Every operator a HASH edge enters needs one key group per task at least. */
        private void validateKeyed(Map<String, Node> byName) {
            for (Edge e : edges) {
                Node to = byName.get(e.to());
                if (e.partitioning() == Partitioning.HASH && to.parallelism() > maxParallelism) {
                    throw new IllegalArgumentException("operator '" + to.name() + "': keyed parallelism "
                            + to.parallelism() + " exceeds the max parallelism " + maxParallelism);
                }
            }
        }

        /** Depth-first search; a back edge closes a cycle, reported from its first node around to it again. */
        private void rejectCycles(Map<String, Node> byName) {
            Map<String, Integer> state = new HashMap<>(); // absent: unvisited, 1: on the stack, 2: done
            for (Node n : nodes) {
                visit(n.name(), state, new ArrayList<>());
            }
        }

        private void visit(String node, Map<String, Integer> state, List<String> stack) {
            Integer s = state.get(node);
            if (s != null && s == 2) {
                return;
            }
            if (s != null && s == 1) {
                List<String> cycle = new ArrayList<>(stack.subList(stack.indexOf(node), stack.size()));
                cycle.add(node);
                throw new IllegalArgumentException("cycle: " + String.join(" -> ", cycle));
            }
            state.put(node, 1);
            stack.add(node);
            for (Edge e : edges) {
                if (e.from().equals(node)) {
                    visit(e.to(), state, stack);
                }
            }
            stack.remove(stack.size() - 1);
            state.put(node, 2);
        }

        private static String kindName(Node n) {
            return n.kind() == NodeKind.SOURCE ? "source" : "operator";
        }
    }
}
