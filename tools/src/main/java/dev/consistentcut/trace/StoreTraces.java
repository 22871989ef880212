package dev.consistentcut.trace;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.checkpoint.DirectoryCheckpointStore;
import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.runtime.RunOptions;
import dev.consistentcut.runtime.RunResult;
import dev.consistentcut.runtime.SimulationRuntime;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * {@code trace record-store}: runs the demo job durably (the simulation, seeded, so the same
 * options give the same trace) in a {@link DirectoryCheckpointStore} whose observer is a
 * {@link StoreTraceRecorder}, and writes the store's trace. Stateless; one run per call.
 */
public final class StoreTraces {

    static final String USAGE = """
              record-store --out FILE --dir DIR [options]
                                            run the demo job durably in DIR (new or empty) in the
                                            simulation and write its checkpoint store's actions, projected
                                            onto one task, as a store trace (IncrementalCheckpointStore.tla)
                --mode, --records, --seed, --checkpoints   as for record (defaults unaligned, 6, 1, 6)
                --retain K                     checkpoints the store keeps (default 1)
                --fail-after-checkpoint F      fail once right after checkpoint F, restoring from the
                                               store (0: never; default 2)
                --task T                       the task the trace is projected onto (default count#0)
                --abort-probability P          chance per step to abort a pending checkpoint: the store
                                               never receives it (default 0)
                --fail-write N                 the store's N-th own file write fails (a full disk): the
                                               checkpoint it was writing is aborted (default 0: none)
            """;

    /** How to run the recorded job; {@code failAfter} 0: no failure; aborted checkpoints never reach the store. */
    public record Settings(String mode, int records, long seed, int checkpoints, int retain, int failAfter, String task,
                           double abortProbability) {
    }

    /** The store's write that fails in a trace recorded with {@code --fail-write} (0: none). */
    private static int failWrite(Map<String, String> o) {
        return TraceTool.count(o, "--fail-write", 0, 0);
    }

    private StoreTraces() {
    }

    static int record(List<String> args, PrintStream out) {
        List<String> positional = new ArrayList<>();
        Map<String, String> o = TraceTool.options(args, List.of("--out", "--dir", "--mode", "--records", "--seed",
                "--checkpoints", "--retain", "--fail-after-checkpoint", "--task", "--abort-probability", "--fail-write"),
                List.of("--force"), positional);
        if (!positional.isEmpty() || !o.containsKey("--out") || !o.containsKey("--dir")) {
            throw new IllegalArgumentException("record-store needs --out FILE and --dir DIR, and options only");
        }
        Path file = Path.of(o.get("--out"));
        TraceTool.checkWritable(file, o.containsKey("--force"), "--out");
        Settings s = new Settings(o.getOrDefault("--mode", "unaligned"), TraceTool.count(o, "--records", 6, 0),
                TraceTool.number(o, "--seed", 1L, Long::parseLong), TraceTool.count(o, "--checkpoints", 6, 0),
                TraceTool.count(o, "--retain", 1, 1), TraceTool.count(o, "--fail-after-checkpoint", 2, 0),
                o.getOrDefault("--task", "count#0"), TraceTool.number(o, "--abort-probability", 0.0, Double::parseDouble));
        Path dir = Path.of(o.get("--dir"));
        int failing = failWrite(o);
        StoreTraceRecorder recorder = failing == 0 ? new StoreTraceRecorder(dir, s.task(), s.retain())
                : new FailingWriteRecorder(dir, s.task(), s.retain(), failing);
        record(file, dir, s, recorder);
        out.printf("%s: %d store events (job demo, mode %s, seed %d, retain %d, task %s)%n", file, recorder.events(),
                s.mode(), s.seed(), s.retain(), s.task());
        return 0;
    }

    /**
     * Runs the demo job with {@code s} in the empty (or new) directory {@code dir}, with
     * {@code recorder} (made for {@code dir}, {@code s.task()} and {@code s.retain()}; a broken
     * twin's is a subclass) as the store's observer, and writes its store trace to {@code file}.
     *
     * @throws IllegalArgumentException when {@code dir} holds files (the spec's store starts empty)
     */
    public static void record(Path file, Path dir, Settings s, StoreTraceRecorder recorder) {
        requireEmpty(dir);
        DirectoryCheckpointStore store = new DirectoryCheckpointStore(dir, s.retain(),
                w -> System.err.println("warning: " + w), "store-trace", recorder);
        JobGraph graph = TraceJobs.build("demo", s.records(), 2, s.seed(), 0);
        RunResult result = new SimulationRuntime(graph, BarrierHandlers.byName(s.mode()), RunOptions.builder()
                .seed(s.seed())
                .store(() -> store)
                .failAfterCheckpoint(s.failAfter())
                .maxSteps(TraceTool.SIMULATION_STEPS)
                .maxCheckpoints(s.checkpoints())
                .triggerProbability(0.1)
                .abortProbability(s.abortProbability())
                .tolerableFailedCheckpoints(1) // a write that fails (--fail-write) aborts its checkpoint, not the run
                .build()).run();
        if (result.checkpoints().isEmpty()) {
            throw new IllegalArgumentException("the run completed no checkpoint: nothing of the store to record"
                    + " (more --records or --checkpoints)");
        }
        recorder.close(file);
    }

    private static void requireEmpty(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.list(dir)) {
            if (files.findAny().isPresent()) {
                throw new IllegalArgumentException(dir + ": not empty; a store trace starts from an empty store");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + dir + ": " + e.getMessage(), e);
        }
    }
}
