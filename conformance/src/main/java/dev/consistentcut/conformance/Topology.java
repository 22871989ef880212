package dev.consistentcut.conformance;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;

/**
 * The physical graph of a conformance job as the trace names it (tasks {@code <uid>#<subtask>},
 * one edge per Flink input channel) and the route of every record: the keyBy exchange computed
 * with Flink's own {@link KeyGroupRangeAssignment} for the record's key, every other exchange
 * fixed (forward to a parallelism-1 map, all join tasks into the one sink).
 */
final class Topology {

    final RunSpec spec;
    final List<String> sources;
    final List<String> operators;
    final List<List<String>> edges = new ArrayList<>();

    Topology(RunSpec spec) {
        this.spec = spec;
        this.sources = spec.sources();
        List<String> ops = new ArrayList<>();
        if (spec.job().equals("diamond")) {
            ops.add("left#0");
            ops.add("right#0");
            edges.add(List.of("src#0", "left#0"));
            edges.add(List.of("src#0", "right#0"));
        }
        List<String> joinInputs = spec.job().equals("join") ? sources : List.of("left#0", "right#0");
        for (int k = 0; k < RunSpec.JOIN_PARALLELISM; k++) {
            ops.add("join#" + k);
            for (String in : joinInputs) {
                edges.add(List.of(in, "join#" + k));
            }
        }
        ops.add("sink#0");
        for (int k = 0; k < RunSpec.JOIN_PARALLELISM; k++) {
            edges.add(List.of("join#" + k, "sink#0"));
        }
        this.operators = List.copyOf(ops);
    }

    /** The keyed task that gets the record with {@code key}: Flink's key group assignment. */
    static String joinTaskOf(int key) {
        return "join#" + KeyGroupRangeAssignment.assignKeyToParallelOperator(key, RunSpec.MAX_PARALLELISM,
                RunSpec.JOIN_PARALLELISM);
    }

    /** The out-edges record {@code off} of {@code src} takes from {@code node}. */
    List<List<String>> route(String node, String src, int off) {
        String join = joinTaskOf(spec.key(src, off));
        if (node.startsWith("join#")) {
            return List.of(List.of(node, "sink#0"));
        }
        if (node.equals("sink#0")) {
            return List.of();
        }
        if (node.equals("src#0")) {
            return List.of(List.of("src#0", "left#0"), List.of("src#0", "right#0"));
        }
        return List.of(List.of(node, join)); // a join-job source or a diamond map
    }

    /** The nodes a record of {@code src} can be at: its source and every operator. */
    private List<String> nodesOf(String src) {
        List<String> n = new ArrayList<>();
        n.add(src);
        n.addAll(operators);
        return n;
    }

    /** The number of paths record {@code off} of {@code src} takes to {@code task} (the copies it should leave there). */
    int paths(String src, int off, String task) {
        Map<String, Integer> at = new LinkedHashMap<>();
        at.put(src, 1);
        int found = 0;
        // The graph is a DAG listed in topological order (source, maps, joins, sink).
        for (String n : nodesOf(src)) {
            int c = at.getOrDefault(n, 0);
            if (c == 0) {
                continue;
            }
            if (n.equals(task)) {
                found = c;
            }
            for (List<String> e : route(n, src, off)) {
                at.merge(e.get(1), c, Integer::sum);
            }
        }
        return found;
    }

    /** The trace's header (docs/conformance.md, "Header"). */
    Map<String, Object> header(int maxConcurrent) {
        Map<String, Object> h = new LinkedHashMap<>();
        h.put("trace", "consistent-cut-trace");
        h.put("version", 1);
        h.put("runtime", "flink");
        h.put("flinkVersion", "2.3.0");
        h.put("mode", spec.mode());
        h.put("modeName", spec.mode());
        h.put("job", spec.job());
        h.put("seed", spec.seed());
        h.put("failures", spec.failures());
        h.put("sources", sources);
        h.put("operators", operators);
        h.put("edges", edges);
        List<Object> records = new ArrayList<>();
        for (String s : sources) {
            records.add(List.of(s, spec.records()));
        }
        h.put("records", records);
        int copies = spec.job().equals("diamond") ? 2 : 1;
        h.put("capacity", copies * sources.size() * spec.records());
        h.put("maxConcurrent", maxConcurrent);
        h.put("abortsReachTasks", true);
        h.put("endOfInput", true);
        h.put("transactionalSink", spec.transactionalSink());
        List<Object> routes = new ArrayList<>();
        for (String s : sources) {
            for (String n : nodesOf(s)) {
                List<Object> perOffset = new ArrayList<>();
                for (int off = 0; off < spec.records(); off++) {
                    perOffset.add(route(n, s, off));
                }
                routes.add(List.of(List.of(n, s), perOffset));
            }
        }
        h.put("routes", routes);
        return h;
    }
}
