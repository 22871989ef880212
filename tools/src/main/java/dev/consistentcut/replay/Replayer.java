package dev.consistentcut.replay;

import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.barrier.DeliveryGuarantee;
import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.Partitioning;
import dev.consistentcut.operator.MapOperator;
import dev.consistentcut.runtime.RunOptions;
import dev.consistentcut.runtime.SimulationRuntime;
import dev.consistentcut.sink.MemorySinkDirectory;
import dev.consistentcut.sink.SinkDirectory;
import dev.consistentcut.sink.TransactionalFileSink;
import dev.consistentcut.source.InMemorySourceLog;
import dev.consistentcut.task.Action;
import dev.consistentcut.task.Step;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Replays the paths of a {@link PathCover} in the {@link SimulationRuntime}: a fresh engine per
 * path, built from the model's own topology (the spec state's sources, operators and edges; every
 * operator an identity map but the sinks of a model with the transactional sink, each a
 * {@code TransactionalFileSink} on a fresh {@code MemorySinkDirectory}; every edge broadcast,
 * parallelism 1), driven step by step through
 * {@link SimulationRuntime#takeStep} with exactly the spec's step at each edge. After each step
 * the engine's state ({@link EngineView}) must equal the spec's on every compared component, and
 * the engine must enable exactly the task and completion steps the spec enables there. The first
 * disagreement ends the path and is a finding: the engine could not take the step (not enabled,
 * or it threw), or it took it and its state or its enabled steps differ from the spec's.
 */
final class Replayer {

    /** One disagreement between the engine and the spec. */
    record Finding(String kind, List<SpecStep> prefix, SpecStep step, List<String> details) {
        String describe() {
            StringBuilder b = new StringBuilder(kind).append(" at ").append(step == null ? "the initial state" : step)
                    .append(" after ").append(prefix.size()).append(" step(s)");
            if (!prefix.isEmpty()) {
                b.append(": ").append(prefix.stream().map(SpecStep::toString).reduce((x, y) -> x + ", " + y).orElse(""));
            }
            details.forEach(d -> b.append("\n      ").append(d));
            return b.toString();
        }
    }

    private final StateGraph g;
    private final BarrierMode mode;
    private final boolean aligned;
    /** Alternating mode: aligned checkpoints that may switch to unaligned (the engine's alignment timeout is 0). */
    private final boolean alternating;
    private final int capacity;
    private final int maxConcurrent;
    private final int records;
    private final JobGraph job;
    private final List<String> sources;
    /** Components the replay compares: the spec's, except those the engine does not keep. */
    private final Set<String> compared = new TreeSet<>();
    private final Map<Integer, Set<String>> specEnabled = new HashMap<>();

    int paths;
    int steps;
    final BitSet statesCovered = new BitSet();
    final Set<StateGraph.Edge> edgesCovered = new java.util.HashSet<>();
    int pathsFailed;
    /** Findings by kind and step (one example each), in the order found. */
    final Map<String, Finding> findings = new LinkedHashMap<>();
    final Map<String, Integer> findingCounts = new LinkedHashMap<>();

    /** The model's EndOfInput: its graph has end-of-partition steps (the engine's RunOptions.endOfInput). */
    private final boolean endOfInput;
    /** The model's AbortsReachTasks: its graph has abort notifications (the engine's RunOptions.abortsReachTasks). */
    private final boolean abortsReachTasks;
    /** The model has transactional sinks (TransactionalSink on). */
    private final boolean sinks;

    /** The sink operator of a model with the transactional sink: the engine's, or a broken twin. */
    private final Function<SinkDirectory, TransactionalFileSink> sinkFactory;
    /** The directory of the current path's sinks: a fresh one per path (the job's validation makes a sink before any). */
    private MemorySinkDirectory sinkDirectory = new MemorySinkDirectory();

    Replayer(StateGraph g, BarrierMode mode, int capacity, int maxConcurrent) {
        this(g, mode, capacity, maxConcurrent, TransactionalFileSink::new);
    }

    Replayer(StateGraph g, BarrierMode mode, int capacity, int maxConcurrent,
             Function<SinkDirectory, TransactionalFileSink> sinkFactory) {
        this.g = g;
        this.sinkFactory = sinkFactory;
        this.mode = mode;
        // The aligned mode blocks the inputs whose barrier arrived; unaligned and at-least-once never block.
        this.alternating = mode.alignedTimeoutMillis() >= 0;
        this.aligned = !alternating && !mode.overtaking() && mode.deliveryGuarantee() == DeliveryGuarantee.EXACTLY_ONCE;
        this.capacity = capacity;
        this.maxConcurrent = maxConcurrent;
        SpecState init = g.states.get(g.initial.get(0));
        int max = 0;
        for (SpecState s : g.states) {
            for (String src : s.sources) {
                max = Math.max(max, Integer.parseInt(s.get("offset[" + src + "]")));
            }
        }
        this.records = max;
        // A source that ends (an alternating model labels SendEndOfPartition with its Progress).
        this.endOfInput = g.states.stream()
                .anyMatch(st -> st.sources.stream().anyMatch(src -> st.get("ended[" + src + "]").equals("true")));
        this.abortsReachTasks = g.out.stream().flatMap(List::stream).anyMatch(e -> e.action().equals("NotifyCheckpointAborted"));
        this.sinks = !init.sinks.isEmpty();
        this.job = job(init);
        this.sources = init.sources;
        // Not compared: failures (the replay's own count), a source's current[s] (the coordinator's
        // bookkeeping, not exposed; InjectBarrier's enabledness compares its effect), arrived[t]
        // of unaligned and at-least-once tasks (the handler states do not expose it; ProcessRecord's
        // persisting and the snapshot's ledger compare its effect through snapChan and snapProcessed), and acked, discardedUpTo and the snapshot data of
        // checkpoints not completed (the engine's coordinator keeps acknowledgements to itself;
        // what a completed checkpoint holds is compared once it completes).
        compared.addAll(List.of("offset", "chan", "processed", "handling", "current", "ckpt", "latest",
                "snapOffset", "snapProcessed", "snapChan", "ended", "endedInputs"));
        if (aligned) {
            compared.add("arrived");
        }
        if (alternating) {
            compared.addAll(List.of("arrived", "unalignedAt", "switchedAt"));
        }
        if (sinks) {
            compared.addAll(List.of("txnOpen", "txnPending", "uncommitted", "committed"));
        }
    }

    /** The component families compared, for the report. */
    Set<String> comparedFamilies() {
        return compared;
    }

    private String family(String component) {
        int b = component.indexOf('[');
        String f = b < 0 ? component : component.substring(0, b);
        if (f.equals("current")) {
            String name = component.substring(b + 1, component.length() - 1);
            SpecState init = g.states.get(g.initial.get(0));
            return init.sources.contains(name) ? "current-source" : "current";
        }
        return f;
    }

    private JobGraph job(SpecState init) {
        JobGraph.Builder b = JobGraph.builder().defaultCapacity(capacity);
        long[] keys = new long[records];
        for (int i = 0; i < records; i++) {
            keys[i] = i;
        }
        init.sources.forEach(s -> b.source(s, InMemorySourceLog.ofKeys(keys)));
        for (String o : init.operators) {
            if (init.sinks.contains(o)) {
                b.operator(o, 1, () -> sinkFactory.apply(sinkDirectory));
            } else {
                b.operator(o, 1, () -> new MapOperator(v -> v));
            }
        }
        for (String e : init.edges) {
            int arrow = e.indexOf("->");
            b.edge(e.substring(0, arrow), e.substring(arrow + 2), Partitioning.BROADCAST);
        }
        return b.build();
    }

    private SimulationRuntime engine() {
        sinkDirectory = new MemorySinkDirectory();
        RunOptions options = RunOptions.builder()
                .abortsReachTasks(abortsReachTasks)
                .endOfInput(endOfInput)
                .maxConcurrentAligned(maxConcurrent)
                .triggerProbability(0)
                .trackProcessed(true)
                .build();
        return new SimulationRuntime(job, mode, options);
    }

    void replay(PathCover.Path path) {
        paths++;
        SimulationRuntime rt = engine();
        EngineView view = new EngineView(rt, aligned, alternating, g.states.get(path.start()).checkpoints,
                sinks ? sinkDirectory : null);
        List<SpecStep> done = new ArrayList<>();
        if (!check(path.start(), rt, view, done, null)) {
            pathsFailed++;
            return;
        }
        for (StateGraph.Edge e : path.edges()) {
            SpecStep spec;
            try {
                spec = SpecStep.infer(g.states.get(e.from()), g.states.get(e.to()), e.action());
            } catch (IllegalArgumentException ex) {
                found("mapping gap", done, new SpecStep(e.action(), null, null, 0), List.of(ex.getMessage()));
                pathsFailed++;
                return;
            }
            // A source's abort notification has no engine step (SpecStep.isSkipBarrier): the engine stays put.
            if (!spec.isSkipBarrier(sources) && !take(spec, rt, view, done)) {
                pathsFailed++;
                return;
            }
            steps++;
            if (!check(e.to(), rt, view, done, spec)) {
                pathsFailed++;
                return;
            }
            edgesCovered.add(e);
            done.add(spec);
        }
    }

    /** Makes the engine take the spec's step; records a finding and returns false if it cannot. */
    private boolean take(SpecStep spec, SimulationRuntime rt, EngineView view, List<SpecStep> done) {
        Step step = engineStep(spec, rt, view);
        if (step == null) {
            found("could not follow (not enabled in the engine)", done, spec,
                    List.of("engine enables: " + engineEnabled(rt, view)));
            return false;
        }
        try {
            rt.takeStep(step);
        } catch (RuntimeException ex) {
            found("could not follow (the engine threw)", done, spec, List.of(String.valueOf(ex.getMessage())));
            return false;
        }
        if (spec.action().equals("TriggerCheckpoint")
                && rt.coordinator().status(spec.checkpoint()) != dev.consistentcut.checkpoint.CheckpointStatus.PENDING) {
            found("could not follow (the engine triggered another id)", done, spec, List.of());
            return false;
        }
        if (step.action() == Action.FAIL_AND_RESTORE) {
            view.failed();
        }
        return true;
    }

    /** Compares the engine with spec state {@code s}; records a finding and returns false if they differ. */
    private boolean check(int s, SimulationRuntime rt, EngineView view, List<SpecStep> done, SpecStep step) {
        SpecState spec = g.states.get(s);
        Map<String, String> engine = view.components();
        List<String> diff = new ArrayList<>();
        Set<String> keys = new TreeSet<>(spec.components.keySet());
        keys.addAll(engine.keySet());
        for (String k : keys) {
            if (!compared.contains(family(k))) {
                continue;
            }
            String a = spec.get(k);
            String b = engine.get(k);
            if (!java.util.Objects.equals(a, b)) {
                diff.add(k + ": spec " + show(a) + ", engine " + show(b));
            }
        }
        if (!diff.isEmpty()) {
            found("diverged (state)", done, step, diff);
            return false;
        }
        Set<String> want = specEnabled.computeIfAbsent(s, this::enabledInSpec);
        Set<String> have = engineEnabled(rt, view);
        if (!want.equals(have)) {
            Set<String> extra = new TreeSet<>(have);
            extra.removeAll(want);
            Set<String> missing = new TreeSet<>(want);
            missing.removeAll(have);
            found("diverged (enabled steps)", done, step, List.of("engine only: " + extra, "spec only: " + missing));
            return false;
        }
        statesCovered.set(s);
        return true;
    }

    private static String show(String v) {
        return v == null ? "(none)" : "'" + v + "'";
    }

    /** The engine steps (task steps and completions) the spec enables in state {@code s}: its out-edges. */
    private Set<String> enabledInSpec(int s) {
        Set<String> out = new TreeSet<>();
        for (StateGraph.Edge e : g.out.get(s)) {
            try {
                SpecStep step = SpecStep.infer(g.states.get(e.from()), g.states.get(e.to()), e.action());
                if (step.isEngineStep() && !step.isSkipBarrier(sources)) {
                    out.add(step.toString());
                }
            } catch (IllegalArgumentException ex) {
                out.add(e.action() + "(?)");
            }
        }
        return out;
    }

    /**
     * The engine's enabled task and completion steps, less its abort notifications of a checkpoint
     * the task does not handle ({@link EngineView#abandons}): those only remember the abort (or
     * change nothing), the engine's deferral, outside the spec's steps the replay models follow
     * (their {@code ReplayAbortRule}), and less its completion notifications that commit nothing
     * ({@link EngineView#commits}): the spec's stuttering steps.
     */
    private static Set<String> engineEnabled(SimulationRuntime rt, EngineView view) {
        Set<String> out = new TreeSet<>();
        for (Step s : rt.enabledSteps()) {
            if (s.action() == Action.NOTIFY_CHECKPOINT_ABORTED ? view.abandons(s)
                    : s.action() != Action.NOTIFY_CHECKPOINT_COMPLETE || view.commits(s)) {
                out.add(view.specStep(s).toString());
            }
        }
        return out;
    }

    /** The engine's step for spec step {@code spec}, or null if the engine does not enable it. */
    private static Step engineStep(SpecStep spec, SimulationRuntime rt, EngineView view) {
        switch (spec.action()) {
            case "TriggerCheckpoint" -> {
                return rt.coordinator().canTrigger() ? new Step(Action.TRIGGER_CHECKPOINT, null, -1, 0) : null;
            }
            case "AbortCheckpoint" -> {
                return new Step(Action.ABORT_CHECKPOINT, null, -1, spec.checkpoint());
            }
            case "FailAndRestore" -> {
                return new Step(Action.FAIL_AND_RESTORE, null, -1, 0);
            }
            default -> {
                for (Step s : rt.enabledSteps()) {
                    if (view.specStep(s).equals(spec)) {
                        return s;
                    }
                }
                return null;
            }
        }
    }

    private void found(String kind, List<SpecStep> done, SpecStep step, List<String> details) {
        String key = kind + " " + (step == null ? "init" : step.action());
        findingCounts.merge(key, 1, Integer::sum);
        findings.putIfAbsent(key, new Finding(kind, List.copyOf(done), step, details));
    }
}
