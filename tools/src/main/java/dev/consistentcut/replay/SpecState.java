package dev.consistentcut.replay;

import dev.consistentcut.text.TlaValue;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One state of the specification, as TLC printed it in its state graph, reduced to the
 * components the replay compares and infers steps from: {@code offset[s]}, {@code chan[e]},
 * {@code processed[t]}, {@code handling[t]}, {@code arrived[t]}, {@code current[n]}, {@code ended[s]}
 * ({@code s \in endedSources}), {@code endedInputs[t]},
 * {@code ckpt[c]}, {@code latest}, {@code failures}, and for every completed checkpoint its
 * {@code snapOffset}, {@code snapProcessed} and {@code snapChan}; in alternating mode also
 * {@code unalignedAt[t]} and {@code switchedAt[c]}; with the transactional sink, per sink
 * {@code txnOpen[t]} and {@code txnPending[t]} while it has not ended, {@code uncommitted[t]}
 * (its open and pending transactions' records together), and {@code committed}. Each component is a canonical
 * string ({@link Canon}), the same one {@link EngineView} computes from the engine. Immutable.
 */
final class SpecState {

    /** Component name to canonical value, sorted by name. */
    final Map<String, String> components;
    /** The model's names, read from the state's own domains. */
    final List<String> sources;
    final List<String> operators;
    /** The sink tasks of a model with the transactional sink (none without it). */
    final List<String> sinks;
    /** Edges as "from->to". */
    final List<String> edges;
    final int checkpoints;

    private SpecState(Map<String, String> components, List<String> sources, List<String> operators,
                      List<String> sinks, List<String> edges, int checkpoints) {
        this.components = components;
        this.sources = sources;
        this.operators = operators;
        this.sinks = sinks;
        this.edges = edges;
        this.checkpoints = checkpoints;
    }

    String get(String component) {
        return components.get(component);
    }

    /**
     * Parses TLC's text of a state ({@code /\ var = value} lines).
     *
     * @param intern shared strings, so that a graph of many states holds each value once
     * @throws IllegalArgumentException naming the variable that cannot be read
     */
    static SpecState parse(String text, Map<String, String> intern) {
        Map<String, TlaValue> vars = variables(text);
        TlaValue offset = need(vars, "offset");
        TlaValue chan = need(vars, "chan");
        TlaValue processed = need(vars, "processed");
        TlaValue ckpt = need(vars, "ckpt");
        List<String> sources = new ArrayList<>();
        offset.entries().keySet().forEach(k -> sources.add(Canon.name(k)));
        Collections.sort(sources);
        List<String> operators = new ArrayList<>();
        processed.entries().keySet().forEach(k -> operators.add(Canon.name(k)));
        Collections.sort(operators);
        List<String> edges = new ArrayList<>();
        chan.entries().keySet().forEach(k -> edges.add(Canon.edge(k)));
        Collections.sort(edges);
        Map<String, String> c = new TreeMap<>();
        offset.entries().forEach((k, v) -> c.put("offset[" + Canon.name(k) + "]", Canon.number(v)));
        chan.entries().forEach((k, v) -> c.put("chan[" + Canon.edge(k) + "]", Canon.messages(v)));
        processed.entries().forEach((k, v) -> c.put("processed[" + Canon.name(k) + "]", Canon.bag(v)));
        need(vars, "handling").entries().forEach((k, v) -> c.put("handling[" + Canon.name(k) + "]", Canon.number(v)));
        need(vars, "arrived").entries().forEach((k, v) -> c.put("arrived[" + Canon.name(k) + "]", Canon.edges(v)));
        need(vars, "current").entries().forEach((k, v) -> c.put("current[" + Canon.name(k) + "]", Canon.number(v)));
        TlaValue ended = need(vars, "endedSources");
        for (String src : sources) {
            boolean in = ended instanceof TlaValue.SetOf set && set.items().stream().anyMatch(v -> Canon.name(v).equals(src));
            c.put("ended[" + src + "]", Boolean.toString(in));
        }
        need(vars, "endedInputs").entries().forEach((k, v) -> c.put("endedInputs[" + Canon.name(k) + "]", Canon.edges(v)));
        c.put("latest", Canon.number(need(vars, "latest")));
        c.put("failures", Canon.number(need(vars, "failures")));
        TlaValue snapOffset = need(vars, "snapOffset");
        TlaValue snapProcessed = need(vars, "snapProcessed");
        TlaValue snapChan = need(vars, "snapChan");
        int n = ckpt.entries().size();
        for (int i = 1; i <= n; i++) {
            TlaValue key = new TlaValue.Num(i);
            String status = Canon.name(ckpt.get(key));
            c.put("ckpt[" + i + "]", status);
            if (status.equals("completed")) {
                c.put("snapOffset[" + i + "]", Canon.offsets(snapOffset.get(key)));
                for (var e : snapProcessed.get(key).entries().entrySet()) {
                    c.put("snapProcessed[" + i + "][" + Canon.name(e.getKey()) + "]", Canon.bag(e.getValue()));
                }
                for (var e : snapChan.get(key).entries().entrySet()) {
                    c.put("snapChan[" + i + "][" + Canon.edge(e.getKey()) + "]", Canon.messages(e.getValue()));
                }
            }
        }
        // Alternating mode (AlternatingCheckpoint.tla): the switch.
        TlaValue unalignedAt = vars.get("unalignedAt");
        if (unalignedAt != null) {
            unalignedAt.entries().forEach((k, v) -> c.put("unalignedAt[" + Canon.name(k) + "]", Canon.number(v)));
            need(vars, "switchedAt").entries().forEach((k, v) -> c.put("switchedAt[" + Canon.name(k) + "]", Canon.names(v)));
        }
        // The transactional sink (DataflowSink.tla): its variables have the sink tasks as domain,
        // none with the option off.
        // txnOpen[t] and txnPending[t] are compared while sink t has not ended: an ended sink's last
        // transaction is pre-committed at its end of input in the engine (as Flink's
        // TwoPhaseCommitSinkFunction.finish does) but only in the next snapshot in the spec, so the
        // two hold it apart (open or pending) and under different ids until the final checkpoint
        // commits it. What is not committed yet, uncommitted[t] (the open transaction and the
        // pending ones), and the committed output are compared always.
        List<String> sinks = new ArrayList<>();
        TlaValue txnOpen = vars.get("txnOpen");
        if (txnOpen != null && !txnOpen.entries().isEmpty()) {
            TlaValue txnPending = need(vars, "txnPending");
            TlaValue txn = need(vars, "txn");
            for (var e : txnOpen.entries().entrySet()) {
                String t = Canon.name(e.getKey());
                sinks.add(t);
                TlaValue pending = txnPending.get(e.getKey());
                List<String> inputs = new ArrayList<>();
                edges.stream().filter(x -> x.endsWith("->" + t)).forEach(inputs::add);
                boolean sinkEnded = Canon.edges(inputs).equals(c.get("endedInputs[" + t + "]"));
                if (!sinkEnded) {
                    c.put("txnOpen[" + t + "]", Canon.bag(e.getValue()));
                    c.put("txnPending[" + t + "]", Canon.names(pending));
                }
                List<String> uncommitted = new ArrayList<>();
                if (!Canon.bag(e.getValue()).isEmpty()) {
                    uncommitted.add(Canon.bag(e.getValue()));
                }
                for (TlaValue d : ((TlaValue.SetOf) pending).items()) {
                    String b = Canon.bag(txn.get(e.getKey()).get(d));
                    if (!b.isEmpty()) {
                        uncommitted.add(b);
                    }
                }
                c.put("uncommitted[" + t + "]", Canon.sumOfBags(uncommitted));
            }
            c.put("committed", Canon.bag(need(vars, "committed")));
        }
        Map<String, String> interned = new TreeMap<>();
        c.forEach((k, v) -> interned.put(intern.computeIfAbsent(k, x -> x), intern.computeIfAbsent(v, x -> x)));
        return new SpecState(Collections.unmodifiableMap(interned), List.copyOf(sources), List.copyOf(operators),
                List.copyOf(sinks), List.copyOf(edges), n);
    }

    private static TlaValue need(Map<String, TlaValue> vars, String name) {
        TlaValue v = vars.get(name);
        if (v == null) {
            throw new IllegalArgumentException("the state has no variable '" + name + "' (not a state of Dataflow.tla?)");
        }
        return v;
    }

    /** The {@code /\ var = value} conjuncts of TLC's state text, each value parsed. */
    static Map<String, TlaValue> variables(String text) {
        Map<String, TlaValue> out = new HashMap<>();
        String[] parts = ("\n" + text).split("\n/\\\\ ");
        for (String p : parts) {
            if (p.isBlank()) {
                continue;
            }
            int eq = p.indexOf(" = ");
            if (eq < 0) {
                throw new IllegalArgumentException("cannot read the state line '" + abbreviate(p) + "'");
            }
            String name = p.substring(0, eq).trim();
            try {
                out.put(name, TlaValue.parse(p.substring(eq + 3).trim()));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("cannot read variable " + name + ": " + e.getMessage());
            }
        }
        return out;
    }

    private static String abbreviate(String s) {
        return s.length() > 60 ? s.substring(0, 60) + "..." : s;
    }
}
