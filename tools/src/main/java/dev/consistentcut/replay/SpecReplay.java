package dev.consistentcut.replay;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.sink.SinkDirectory;
import dev.consistentcut.sink.TransactionalFileSink;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Constructor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Spec to engine: replays the state graph of a TLC model in the simulation runtime (
 * docs/trace-validation.md "Spec to engine: replay"). Reads TLC's {@code -dump dot,actionlabels}
 * file of a model of AlignedCheckpoint.tla, UnalignedCheckpoint.tla, AtLeastOnceCheckpoint.tla or
 * AlternatingCheckpoint.tla, derives a path cover,
 * forces the engine through every path step by step and compares its state with the spec's after
 * each step. Exit codes: 0 the engine followed every path; 1 it could not follow one or diverged;
 * 2 bad usage; 3 the file cannot be read or is not a state graph. A stack trace only with
 * {@code --debug}.
 */
public final class SpecReplay {

    private SpecReplay() {
    }

    static final String USAGE = """
            Usage: spec-replay --dot FILE --mode aligned|unaligned|at-least-once|alternating --capacity N [options]

            Replays TLC's state graph of a model (TLC -dump dot,actionlabels FILE) in the engine's
            simulation runtime: a path cover of the graph, each path from the initial state, the
            engine forced to take exactly the spec's step at each edge, its state compared with the
            spec's after each step.

              --dot FILE            the state graph (TLC writes FILE.dot)
              --mode M              aligned | unaligned | at-least-once | alternating: the protocol
                                    the model checks (alternating: the engine's alignment timeout is
                                    0, so TimeoutAlignment is enabled wherever the spec enables it)
              --capacity N          the model's Capacity (records per channel)
              --max-concurrent N    the model's MaxConcurrent (aligned; default 1)
              --cover edges|states  cover every edge (default) or every state
              --name NAME           the model's name in the report (default: the file name)
              --broken NAME         replay a broken engine instead: aligned-without-blocking,
                                    unaligned-forgetting-in-flight, ended-input-not-counted-as-arrived,
                                    abort-keeps-inputs-blocked (aligned), snapshot-on-first-barrier
                                    (at-least-once), alternating-not-propagated,
                                    alternating-forgetting-pending-inputs (alternating),
                                    sink-commit-on-snapshot, sink-no-recommit-on-restore
                                    (a model with the transactional sink); needs the test
                                    classes on the class path; the
                                    replay must then report a divergence
              --twin NAME           after the replay, replay broken engine NAME (as --broken) over
                                    the same graph, up to its first finding; it must diverge
                                    (repeatable; loads the graph once for all)
              --twin-ignore F[,F...] as --ignore, for the twins only
              --ignore F[,F...]     component families not to compare (e.g. current): to see
                                    past a known difference
              --max-findings N      findings printed in full (default 5)
              --stop-at-first       stop at the first finding (a broken twin needs no more)
              --debug               stack traces with errors
              --help                this text

            Exit codes: 0 every path followed (and every --twin diverged), 1 the engine could not
            follow a path or diverged (or a --twin did not), 2 bad usage, 3 the file cannot be read
            or is not a state graph.
            """;

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        Path dot = null;
        String modeName = null;
        Integer capacity = null;
        int maxConcurrent = 1;
        PathCover.Kind kind = PathCover.Kind.EDGES;
        String name = null;
        String broken = null;
        List<String> twins = new ArrayList<>();
        List<String> twinIgnore = new ArrayList<>();
        int maxFindings = 5;
        List<String> ignore = new ArrayList<>();
        boolean stopAtFirst = false;
        boolean debug = false;
        try {
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                switch (a) {
                    case "--help", "-h" -> {
                        out.print(USAGE);
                        return 0;
                    }
                    case "--debug" -> debug = true;
                    case "--dot" -> dot = Path.of(value(args, ++i, a));
                    case "--mode" -> modeName = value(args, ++i, a);
                    case "--capacity" -> capacity = number(value(args, ++i, a), a, 1);
                    case "--max-concurrent" -> maxConcurrent = number(value(args, ++i, a), a, 1);
                    case "--cover" -> {
                        String v = value(args, ++i, a);
                        kind = switch (v) {
                            case "edges" -> PathCover.Kind.EDGES;
                            case "states" -> PathCover.Kind.STATES;
                            default -> throw new UsageException("--cover: 'edges' or 'states', not '" + v + "'");
                        };
                    }
                    case "--name" -> name = value(args, ++i, a);
                    case "--broken" -> broken = value(args, ++i, a);
                    case "--twin" -> twins.add(value(args, ++i, a));
                    case "--twin-ignore" -> twinIgnore.addAll(List.of(value(args, ++i, a).split(",")));
                    case "--stop-at-first" -> stopAtFirst = true;
                    case "--ignore" -> ignore.addAll(List.of(value(args, ++i, a).split(",")));
                    case "--max-findings" -> maxFindings = number(value(args, ++i, a), a, 0);
                    default -> throw new UsageException("unknown argument '" + a + "'");
                }
            }
            if (dot == null) {
                throw new UsageException("--dot FILE is required");
            }
            if (modeName == null) {
                throw new UsageException("--mode is required (aligned, unaligned, at-least-once or alternating)");
            }
            if (capacity == null) {
                throw new UsageException("--capacity N is required (the model's Capacity)");
            }
        } catch (UsageException e) {
            err.println("spec-replay: " + e.getMessage());
            err.println("(spec-replay --help for the usage)");
            return 2;
        }
        if (name == null) {
            name = dot.getFileName().toString().replaceFirst("\\.dot$", "");
        }
        long t0 = System.nanoTime();
        StateGraph g;
        try {
            if (!Files.isRegularFile(dot)) {
                err.println("spec-replay: " + dot + ": no such file");
                return 3;
            }
            g = StateGraph.load(dot);
        } catch (IOException | IllegalArgumentException e) {
            err.println("spec-replay: " + dot + ": " + e.getMessage());
            if (debug) {
                e.printStackTrace(err);
            }
            return 3;
        }
        long t1 = System.nanoTime();
        Engine engine = engine(modeName, broken, "--broken", g, debug, err);
        if (engine.exitCode() != 0) {
            return engine.exitCode();
        }
        int rc = replay(name, g, engine.mode(), engine.sink(), broken, capacity, maxConcurrent, kind, ignore, stopAtFirst,
                maxFindings, (t1 - t0) / 1e9, debug, out, err);
        for (String twin : twins) {
            if (rc == 2 || rc == 3) {
                break;
            }
            Engine twinEngine = engine(modeName, twin, "--twin", g, debug, err);
            if (twinEngine.exitCode() != 0) {
                return twinEngine.exitCode();
            }
            int t = replay(name + " [" + twin + "]", g, twinEngine.mode(), twinEngine.sink(), twin, capacity, maxConcurrent,
                    kind, twinIgnore, true, 1, 0, debug, out, err);
            if (t == 0) {
                out.println(name + " [" + twin + "]: NOT CAUGHT: the broken twin followed every path");
                rc = Math.max(rc, 1);
            } else if (t != 1) {
                return t;
            }
        }
        return rc;
    }

    /** The engine a replay forces: its barrier mode and sink; or, exit code not 0, why there is none (told on err). */
    private record Engine(BarrierMode mode, Function<SinkDirectory, TransactionalFileSink> sink, int exitCode) {
    }

    /**
     * The engine of mode {@code modeName}, correct or the broken one named {@code broken} (given as
     * {@code option}, {@code --broken} or {@code --twin}): exit code 2 for an unknown name or a
     * broken sink on a model without a sink, 3 when the broken engines (test classes) are not on
     * the class path.
     */
    private static Engine engine(String modeName, String broken, String option, StateGraph g, boolean debug,
                                 PrintStream err) {
        try {
            BarrierMode mode = mode(modeName, broken);
            Function<SinkDirectory, TransactionalFileSink> sink = sink(broken);
            if (BROKEN_SINKS.containsKey(broken) && g.states.get(g.initial.get(0)).sinks.isEmpty()) {
                err.println("spec-replay: " + option + " " + broken
                        + ": the model has no transactional sink (TransactionalSink <- SinkOn)");
                return new Engine(null, null, 2);
            }
            return new Engine(mode, sink, 0);
        } catch (UsageException e) {
            err.println("spec-replay: " + e.getMessage());
            return new Engine(null, null, 2);
        } catch (ReflectiveOperationException | LinkageError e) {
            err.println("spec-replay: the broken engine '" + broken + "' is in the test classes, which are not on the class path"
                    + " (build with mvn -pl tools -am test-compile and add reference-impl/target/test-classes)");
            if (debug) {
                e.printStackTrace(err);
            }
            return new Engine(null, null, 3);
        }
    }

    /**
     * One replay of graph {@code g} in engine {@code mode} with sink {@code sink}, reported under
     * {@code name}: 0 every path followed, 1 not, 2 a bad {@code --ignore}, 3 the replay failed.
     */
    private static int replay(String name, StateGraph g, BarrierMode mode, Function<SinkDirectory, TransactionalFileSink> sink,
                              String broken, int capacity, int maxConcurrent, PathCover.Kind kind, List<String> ignore,
                              boolean stopAtFirst, int maxFindings, double loadSeconds, boolean debug,
                              PrintStream out, PrintStream err) {
        long t1 = System.nanoTime();
        Replayer r;
        PathCover cover;
        try {
            r = new Replayer(g, mode, capacity, maxConcurrent, sink);
            for (String f : ignore) {
                if (!r.comparedFamilies().remove(f.trim())) {
                    err.println("spec-replay: --ignore: '" + f + "' is not compared; compared: " + r.comparedFamilies());
                    return 2;
                }
            }
            cover = new PathCover(g);
            boolean stop = stopAtFirst;
            cover.paths(kind, p -> {
                if (!(stop && r.pathsFailed > 0)) {
                    r.replay(p);
                }
            });
        } catch (RuntimeException e) {
            err.println("spec-replay: " + name + ": the replay failed: " + e);
            if (debug) {
                e.printStackTrace(err);
            }
            return 3;
        }
        long t2 = System.nanoTime();
        int states = g.states.size();
        out.printf(Locale.ROOT, "%s: %s%s, cover of %s: %d paths, %d steps; states %d/%d, edges %d/%d covered"
                        + " (%d stuttering self-loops not replayed); %d path(s) the engine could not follow or diverged on"
                        + " (load %.1f s, replay %.1f s)%n",
                name, mode.name(), broken == null ? "" : " (broken: " + broken + ")", kind.name().toLowerCase(Locale.ROOT),
                r.paths, r.steps, r.statesCovered.cardinality(), states, r.edgesCovered.size(), g.edgeCount,
                g.stutterEdges, r.pathsFailed, loadSeconds, (t2 - t1) / 1e9);
        int notFollowed = 0;
        int diverged = 0;
        int gaps = 0;
        for (Map.Entry<String, Integer> f : r.findingCounts.entrySet()) {
            if (f.getKey().startsWith("could not follow")) {
                notFollowed += f.getValue();
            } else if (f.getKey().startsWith("diverged")) {
                diverged += f.getValue();
            } else {
                gaps += f.getValue();
            }
        }
        out.printf(Locale.ROOT, "%s: paths the engine could not follow: %d; diverged on: %d; not mapped: %d%n",
                name, notFollowed, diverged, gaps);
        out.println(name + ": compared: " + String.join(", ", r.comparedFamilies())
                + (ignore.isEmpty() ? "" : " (ignored: " + String.join(", ", ignore) + ")"));
        if (cover.reachable() != states) {
            out.println(name + ": note: " + (states - cover.reachable()) + " state(s) of the file are not reachable from its initial states");
        }
        int shown = 0;
        for (Map.Entry<String, Replayer.Finding> f : r.findings.entrySet()) {
            int count = r.findingCounts.get(f.getKey());
            if (shown++ < maxFindings) {
                out.println(name + ": FINDING (" + count + " path(s)): " + f.getValue().describe());
            } else {
                out.println(name + ": finding (" + count + " path(s)): " + f.getKey());
            }
        }
        boolean ok = r.pathsFailed == 0;
        out.println(name + ": " + (ok ? "the engine followed every path" : "DIVERGED: the engine could not follow "
                + r.pathsFailed + " of " + r.paths + " paths"));
        return ok ? 0 : 1;
    }

    /** The broken engines of the test sources: name, class in dev.consistentcut.barrier, factory method. */
    private static final Map<String, String[]> BROKEN = new java.util.LinkedHashMap<>();

    static {
        BROKEN.put("aligned-without-blocking", new String[] {"BrokenHandlers", "alignedWithoutBlocking"});
        BROKEN.put("unaligned-forgetting-in-flight", new String[] {"BrokenHandlers", "unalignedForgettingInFlight"});
        BROKEN.put("ended-input-not-counted-as-arrived", new String[] {"BrokenLifecycleHandlers", "endedInputNotCountedAsArrived"});
        BROKEN.put("abort-keeps-inputs-blocked", new String[] {"BrokenLifecycleHandlers", "abortKeepsInputsBlocked"});
        BROKEN.put("snapshot-on-first-barrier", new String[] {"BrokenTrackerHandlers", "snapshotOnFirstBarrier"});
        // alternating: the factory takes the alignment timeout (0: TimeoutAlignment wherever the spec enables it)
        BROKEN.put("alternating-not-propagated", new String[] {"BrokenHandlers", "alternatingNotPropagated", "timeout"});
        BROKEN.put("alternating-forgetting-pending-inputs",
                new String[] {"BrokenHandlers", "alternatingForgettingPendingInputs", "timeout"});
    }

    /** The broken sinks of the test sources: name, class in dev.consistentcut.sink.BrokenSinks (a constructor of a SinkDirectory). */
    private static final Map<String, String> BROKEN_SINKS = new java.util.LinkedHashMap<>();

    static {
        BROKEN_SINKS.put("sink-commit-on-snapshot", "CommitOnSnapshot");
        BROKEN_SINKS.put("sink-no-recommit-on-restore", "NoRecommitOnRestore");
    }

    /** The sink the replay runs: the engine's, or the broken twin {@code broken} names. */
    private static Function<SinkDirectory, TransactionalFileSink> sink(String broken) throws ReflectiveOperationException {
        String twin = broken == null ? null : BROKEN_SINKS.get(broken);
        if (twin == null) {
            return TransactionalFileSink::new;
        }
        Constructor<?> c = Class.forName("dev.consistentcut.sink.BrokenSinks$" + twin).getConstructor(SinkDirectory.class);
        return dir -> {
            try {
                return (TransactionalFileSink) c.newInstance(dir);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("cannot make the broken sink " + twin, e);
            }
        };
    }

    private static BarrierMode mode(String name, String broken) throws UsageException, ReflectiveOperationException {
        BarrierMode correct = switch (name) {
            case "aligned" -> BarrierHandlers.aligned();
            case "unaligned" -> BarrierHandlers.unaligned();
            case "at-least-once" -> BarrierHandlers.atLeastOnce();
            case "alternating" -> BarrierHandlers.alternating(0);
            default -> throw new UsageException("--mode: 'aligned', 'unaligned', 'at-least-once' or 'alternating', not '"
                    + name + "'");
        };
        if (broken == null || BROKEN_SINKS.containsKey(broken)) {
            return correct;
        }
        String[] twin = BROKEN.get(broken);
        if (twin == null) {
            List<String> names = new ArrayList<>(BROKEN.keySet());
            names.addAll(BROKEN_SINKS.keySet());
            throw new UsageException("--broken: one of " + names + ", not '" + broken + "'");
        }
        Class<?> c = Class.forName("dev.consistentcut.barrier." + twin[0]);
        if (twin.length > 2) {
            return (BarrierMode) c.getMethod(twin[1], long.class).invoke(null, 0L);
        }
        return (BarrierMode) c.getMethod(twin[1]).invoke(null);
    }

    private static String value(String[] args, int i, String option) throws UsageException {
        if (i >= args.length) {
            throw new UsageException(option + " needs a value");
        }
        return args[i];
    }

    private static int number(String v, String option, int min) throws UsageException {
        try {
            int n = Integer.parseInt(v);
            if (n < min) {
                throw new UsageException(option + ": at least " + min + ", not " + n);
            }
            return n;
        } catch (NumberFormatException e) {
            throw new UsageException(option + ": not a number: '" + v + "'");
        }
    }

    static final class UsageException extends Exception {
        UsageException(String message) {
            super(message);
        }
    }
}
