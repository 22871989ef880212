package dev.consistentcut.trace;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.check.Violation;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.checkpoint.InMemoryCheckpointStore;
import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.Partitioning;
import dev.consistentcut.operator.KeyedCount;
import dev.consistentcut.operator.MapOperator;
import dev.consistentcut.runtime.Rescaling;
import dev.consistentcut.runtime.RunOptions;
import dev.consistentcut.runtime.RunResult;
import dev.consistentcut.runtime.SimulationRuntime;
import dev.consistentcut.source.InMemorySourceLog;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code trace record-rescale}: a seeded simulation of the join (two sources into a keyed count,
 * the spec's Join), or of the map chain (two sources into a stateless map into a keyed count, both
 * rescaled: the spec's RescaleMapDown shape, FLINK-31963's job), at one parallelism, stopped at its first completed checkpoint (for modes that
 * store in-flight records, its first one holding some), which is then restored at another
 * parallelism with a {@link RescaleTraceRecorder} observing the restore; the restored job runs to
 * its end under the engine's own checks. The same options give the same trace. The scenario of
 * Flink's {@code UnalignedCheckpointRescaleITCase} (a keyed exchange restored up and down with
 * in-flight data), cut down to the restore and checked against the spec. Stateless.
 */
public final class RescaleTraces {

    static final String USAGE = """
              record-rescale --out FILE [options]
                                            run the join (two sources into a keyed count), or the map chain,
                                            in the simulation to its first checkpoint (unaligned, alternating: the first with
                                            in-flight records), restore it at another parallelism and write
                                            the restore as a rescale trace (RescaleRestore.tla); then run the
                                            restored job to its end under the engine's own checks
                --mode aligned|unaligned|alternating   (default unaligned; not at-least-once: its
                                               checkpoints may count records past their offsets, no
                                               cut of RescaleRestore.tla's TakeCheckpoint)
                --job join|map                 the join (default), or the map chain: two sources into a
                                               stateless map into a keyed count, both operators rescaled
                                               (the channel state of both exchanges redistributed)
                --from N                       the rescaled operators' parallelism when checkpointed
                                               (default 2)
                --to N                         their parallelism after the restore (default 3)
                --records N, --capacity N, --seed N   as for record (defaults 12, 2, 1)
            """;

    /** The job's steps before its checkpoint at most: a run that has none by then is refused. */
    static final int MAX_STEPS = 20_000;

    /** How to run the recorded job. */
    public record Settings(String job, String mode, int from, int to, int records, int capacity, long seed) {

        /** The join's settings. */
        public Settings(String mode, int from, int to, int records, int capacity, long seed) {
            this("join", mode, from, to, records, capacity, seed);
        }
    }

    /** What a recorded run came to: the trace's events, the checkpoint restored, the engine's verdict after the restore. */
    public record Recorded(int events, CompletedCheckpoint checkpoint, RunResult after) {
    }

    private RescaleTraces() {
    }

    static int record(List<String> args, PrintStream out) {
        List<String> positional = new ArrayList<>();
        Map<String, String> o = TraceTool.options(args, List.of("--out", "--job", "--mode", "--from", "--to", "--records",
                "--capacity", "--seed"), List.of("--force"), positional);
        if (!positional.isEmpty() || !o.containsKey("--out")) {
            throw new IllegalArgumentException("record-rescale needs --out FILE, and options only");
        }
        Path file = Path.of(o.get("--out"));
        TraceTool.checkWritable(file, o.containsKey("--force"), "--out");
        Settings s = new Settings(o.getOrDefault("--job", "join"), o.getOrDefault("--mode", "unaligned"), TraceTool.count(o, "--from", 2, 1),
                TraceTool.count(o, "--to", 3, 1), TraceTool.count(o, "--records", 12, 1),
                TraceTool.count(o, "--capacity", 2, 1), TraceTool.number(o, "--seed", 1L, Long::parseLong));
        BarrierHandlers.byName(s.mode()); // an unknown mode is bad usage, before anything runs
        if (!s.job().equals("join") && !s.job().equals("map")) {
            throw new IllegalArgumentException("--job " + s.job() + ": join or map");
        }
        if (s.mode().equals("at-least-once")) {
            throw new IllegalArgumentException("--mode at-least-once: its checkpoints may count records past their"
                    + " offsets, which is no cut RescaleRestore.tla takes; record aligned, unaligned or alternating");
        }
        if (s.from() == s.to()) {
            throw new IllegalArgumentException("--from and --to are both " + s.from() + ": no rescale to record");
        }
        Recorded r = record(file, s, Rescaling.KEY_GROUPS, Rescaling.KEY_GROUP_ROUTE);
        out.printf("%s: %d rescale events (%s, mode %s, seed %d): checkpoint %d at parallelism %d (%d records in"
                        + " flight) restored at %d; the engine's own checks after the restore: %s%n",
                file, r.events(), s.job(), s.mode(), s.seed(), r.checkpoint().id(), s.from(), r.checkpoint().persistedRecordCount(),
                s.to(), r.after().violations().isEmpty() ? "hold"
                        : "violated: " + r.after().violations().stream().limit(3).map(Violation::message).toList());
        return r.after().holds() ? 0 : 1;
    }

    /**
     * The job with its rescaled operators at {@code parallelism}: the join (the keyed count fed by
     * both sources, one HASH exchange: the spec's Join) or the map chain (a stateless map between
     * two HASH exchanges, then the keyed count: the shape of the spec's RescaleMapDown, and of
     * RescaledRestoreTest's mapJob without its sink).
     */
    public static JobGraph job(Settings s, int parallelism) {
        if (s.job().equals("map")) {
            return JobGraph.builder()
                    .defaultCapacity(s.capacity())
                    .source("s1", InMemorySourceLog.randomKeys(s.records(), 40, s.seed()))
                    .source("s2", InMemorySourceLog.randomKeys(s.records(), 40, s.seed() + 1))
                    .operator("map", parallelism, () -> new MapOperator(v -> v))
                    .operator("count", parallelism, KeyedCount::new)
                    .edge("s1", "map", Partitioning.HASH)
                    .edge("s2", "map", Partitioning.HASH)
                    .edge("map", "count", Partitioning.HASH)
                    .build();
        }
        return JobGraph.builder()
                .defaultCapacity(s.capacity())
                .source("s1", InMemorySourceLog.randomKeys(s.records(), 40, s.seed()))
                .source("s2", InMemorySourceLog.randomKeys(s.records(), 40, s.seed() + 1))
                .operator("count", parallelism, KeyedCount::new)
                .edge("s1", "count", Partitioning.HASH)
                .edge("s2", "count", Partitioning.HASH)
                .build();
    }

    /**
     * Runs the job at {@code s.from()} to its first checkpoint (with in-flight records, when the
     * mode stores some), restores it at {@code s.to()} with {@code placement} and {@code route}
     * (a broken twin's are others) observed by a recorder, writes the trace to {@code file}, and
     * runs the restored job to its end.
     *
     * @throws IllegalArgumentException when the run completes no such checkpoint (another seed)
     */
    public static Recorded record(Path file, Settings s, Rescaling.Placement placement, Rescaling.ChannelRoute route) {
        BarrierMode mode = BarrierHandlers.byName(s.mode());
        boolean inFlight = s.mode().equals("unaligned") || s.mode().equals("alternating");
        InMemoryCheckpointStore store = new InMemoryCheckpointStore(1);
        SimulationRuntime before = new SimulationRuntime(job(s, s.from()), mode,
                RunOptions.builder().seed(s.seed()).triggerProbability(0.2).store(() -> store).build());
        CompletedCheckpoint checkpoint = null;
        for (int i = 0; i < MAX_STEPS && checkpoint == null && before.step(); i++) {
            checkpoint = store.latest().filter(c -> !inFlight || c.persistedRecordCount() > 0).orElse(null);
        }
        if (checkpoint == null) {
            throw new IllegalArgumentException("seed " + s.seed() + ": the run completed no checkpoint"
                    + (inFlight ? " with records in flight" : "") + " to restore; try another --seed or more --records");
        }
        JobGraph after = job(s, s.to());
        RescaleTraceRecorder recorder = new RescaleTraceRecorder(after, s.mode());
        CompletedCheckpoint restored = Rescaling.restoreRescaled(checkpoint, after, placement, route, recorder);
        recorder.close(file);
        InMemoryCheckpointStore restoring = new InMemoryCheckpointStore(1);
        restoring.store(restored);
        RunResult result = new SimulationRuntime(after, mode,
                RunOptions.builder().seed(s.seed()).store(() -> restoring).build()).run();
        return new Recorded(recorder.events(), checkpoint, result);
    }
}
