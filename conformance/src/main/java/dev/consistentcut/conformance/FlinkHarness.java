package dev.consistentcut.conformance;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Runs conformance jobs on one MiniCluster (two TaskManagers of two slots each, in this JVM),
 * reused from run to run: each run installs a fresh {@link TraceLog}, submits the job, triggers a
 * checkpoint whenever a source waits at a gate (and while the job waits for its final checkpoint),
 * and ends the trace with {@code RunEnded}. The way Flink's own ITCases drive such jobs
 * (UnalignedCheckpointTestBase: a MiniCluster of several TaskManagers, checkpoint settings and a
 * fixed-delay restart strategy in the job's configuration, a failure thrown by a user function
 * after a completed checkpoint), rebuilt here on public APIs.
 */
public final class FlinkHarness implements AutoCloseable {

    /** A run that has not ended after this long is cancelled and reported as not finished. */
    private static final Duration RUN_TIMEOUT = Duration.ofSeconds(90);

    /** How long after a trigger the harness waits before it triggers again for the same wait. */
    private static final long RETRIGGER_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final MiniCluster cluster;

    public FlinkHarness() throws Exception {
        Configuration conf = new Configuration();
        conf.set(RestOptions.BIND_PORT, "0");
        conf.set(TaskManagerOptions.MANAGED_MEMORY_SIZE, MemorySize.parse("16m"));
        conf.set(TaskManagerOptions.NETWORK_MEMORY_MIN, MemorySize.parse("32m"));
        conf.set(TaskManagerOptions.NETWORK_MEMORY_MAX, MemorySize.parse("32m"));
        cluster = new MiniCluster(new MiniClusterConfiguration.Builder().setConfiguration(conf)
                .setNumTaskManagers(2).setNumSlotsPerTaskManager(2).build());
        cluster.start();
    }

    /**
     * What one run left: its trace (the log, with RunEnded), whether the job finished, and where
     * its retained checkpoints are ({@code chk-<id>} directories; null if they were not kept).
     */
    public record Outcome(RunSpec spec, TraceLog log, boolean finished, String failure, double seconds,
                          java.nio.file.Path checkpoints) {
    }

    /** Runs {@code spec} to its end (or the timeout) and returns its trace; checkpoints in memory. */
    public Outcome run(RunSpec spec) throws Exception {
        return run(spec, null);
    }

    /**
     * Runs {@code spec}; with {@code checkpointDir}, every completed checkpoint is written there
     * and retained (for the State Processor API), else kept in the JobManager's memory.
     */
    public Outcome run(RunSpec spec, java.nio.file.Path checkpointDir) throws Exception {
        long start = System.nanoTime();
        Topology topology = new Topology(spec);
        int maxConcurrent = spec.maxConcurrent();
        TraceLog log = new TraceLog(topology.header(maxConcurrent));
        if (spec.transactionalSink()) {
            log.sinkDir(freshSinkDir(spec));
        }
        TraceLog.install(log);
        // a savepoint run: the sources wait at the first gate until the savepoint is taken too;
        // a stop-with-savepoint run: at the stop's gate, until the job is stopped
        log.holdGate(spec.savepoint() ? 0 : spec.stopWithSavepoint() ? spec.stopGate() : -1);
        long deadline = System.nanoTime() + RUN_TIMEOUT.toNanos();
        JobGraph job = jobGraph(spec, maxConcurrent, checkpointDir);
        Job first = runJob(spec, topology, log, job, deadline, checkpointDir);
        Job last = first;
        if (first.stopPath() != null) {
            // The stop: the first job ended at its synchronous savepoint, whose id its metadata
            // names. To the spec it is a failure, and the second job a restore from it: its
            // attempts follow the first job's.
            long sp = savepointId(first.stopPath());
            log.markStopWithSavepoint(sp);
            int lastAttempt = lastAttempt(log);
            log.event("StopWithSavepoint", "job", lastAttempt, "checkpoint", sp, "path", first.stopPath());
            log.jobStopped(lastAttempt + 1);
            JobGraph again = jobGraph(spec, maxConcurrent, checkpointDir);
            again.setSavepointRestoreSettings(
                    org.apache.flink.runtime.jobgraph.SavepointRestoreSettings.forPath(first.stopPath(), false));
            last = runJob(spec, topology, log, again, deadline, checkpointDir);
        }
        boolean finished;
        String failure = null;
        CompletableFuture<JobResult> result = last.result();
        if (result.isDone()) {
            JobResult r = result.get();
            finished = r.isSuccess();
            if (!r.isSuccess()) {
                failure = r.getSerializedThrowable().map(t -> t.getFullStringifiedStackTrace()).orElse("failed");
            }
        } else {
            cluster.cancelJob(last.id()).get(30, TimeUnit.SECONDS);
            result.get(30, TimeUnit.SECONDS);
            finished = false;
            failure = "did not end within " + RUN_TIMEOUT.toSeconds() + " s; cancelled";
        }
        if (spec.stopWithSavepoint() && first.stopPath() == null && failure == null) {
            failure = "the stop-with-savepoint was not taken" + (first.stopFailure() == null ? "" : ": " + first.stopFailure());
        }
        int lastAttempt = lastAttempt(log);
        if (spec.transactionalSink()) {
            // what a reader of the two-phase-commit sink's output sees once the job has ended
            log.event("RunEnded", "job", lastAttempt, "finished", finished, "output", log.committedOutput());
        } else {
            log.event("RunEnded", "job", lastAttempt, "finished", finished);
        }
        return new Outcome(spec, log, finished, failure, (System.nanoTime() - start) / 1e9,
                checkpointDir == null ? null : checkpointDir.resolve(last.id().toString()).resolve("retained"));
    }

    /** The newest attempt any event of {@code log} has (0: none). */
    private static int lastAttempt(TraceLog log) {
        return log.events().stream().mapToInt(e -> ((Number) e.get("attempt")).intValue()).max().orElse(0);
    }

    /**
     * One job of a run: its id, its result, and, if the harness stopped it with a savepoint, the
     * savepoint's path (else null, and why the stop failed if it was tried).
     */
    private record Job(JobID id, CompletableFuture<JobResult> result, String stopPath, String stopFailure) {
    }

    /**
     * Submits {@code job} and drives it until it ends or the deadline passes: a checkpoint
     * whenever a source waits at a gate (and while the job waits for its final checkpoint), the
     * seeded TaskManager losses, the savepoint, and the stop-with-savepoint.
     */
    private Job runJob(RunSpec spec, Topology topology, TraceLog log, JobGraph job, long deadline,
            java.nio.file.Path checkpointDir) throws Exception {
        boolean savepointTriggered = false;
        boolean stopTriggered = false;
        int stopTries = 0;
        String[] stop = new String[2]; // the stop's savepoint path, or why it failed
        JobID id = job.getJobID();
        cluster.submitJob(job).get(30, TimeUnit.SECONDS);
        CompletableFuture<JobResult> result = cluster.requestJobResult(id);
        CompletableFuture<?> trigger = CompletableFuture.completedFuture(null);
        long served = 0; // gate arrivals a triggered checkpoint has served
        long lastTrigger = System.nanoTime();
        while (!result.isDone() && System.nanoTime() < deadline) {
            // A checkpoint while a source waits at a gate; without periodic checkpoints also once
            // every source has ended (Flink's final checkpoint waits for a trigger).
            boolean atEnd = spec.checkpointMillis() == 0 && log.sourcesEnded() == topology.sources.size();
            // One checkpoint for the sources' arrival at a gate: once all wait there (or one has
            // waited a while alone); another if a source still waits well after it (that
            // checkpoint was declined, or cut before the source reached its gate).
            long arrivals = log.gateArrivals();
            long now = System.nanoTime();
            boolean allThere = log.sourcesAtGate() + log.sourcesEnded() >= topology.sources.size();
            // With the two-phase-commit sink: one checkpoint per gate, when every source is there,
            // and another only if none completed for a long while (declined): a second checkpoint
            // at the same gate would hold an empty transaction and be the one a failure restores,
            // whose re-commit would then meet nothing already committed.
            boolean tx = spec.transactionalSink();
            boolean fresh = arrivals > served && (allThere || !tx && now - log.lastArrivalNanos() > RETRIGGER_NANOS);
            boolean gate = log.anySourceAtGate()
                    && (fresh || arrivals <= served && now - lastTrigger > (tx ? 20 : 3) * RETRIGGER_NANOS);
            if (trigger.isDone() && !stopTriggered && (gate || atEnd && now - lastTrigger > RETRIGGER_NANOS)) {
                served = arrivals;
                lastTrigger = now;
                trigger = cluster.triggerCheckpoint(id).exceptionally(t -> null);
            }
            if (spec.fault() == RunSpec.Fault.TM_LOSS) {
                maybeLoseTaskManager(spec, log);
            }
            if (spec.savepoint() && !savepointTriggered && log.gateCompleted() >= 0 && trigger.isDone()) {
                // The first gate's checkpoint completed and the sources are held: a savepoint now
                // (nothing else in flight, and no trigger until it is done), whose id is then the
                // newest any snapshot names; its snapshots get "savepoint": true.
                savepointTriggered = true;
                long before = log.newestSnapshotId();
                trigger = cluster.triggerSavepoint(id, savepointDir(spec), false,
                        org.apache.flink.core.execution.SavepointFormatType.CANONICAL).handle((path, t) -> {
                            long sp = log.newestSnapshotId();
                            if (t == null && sp > before) {
                                log.markSavepoint(sp);
                            }
                            log.holdGate(-1);
                            return null;
                        });
            }
            if (stopTriggered && trigger.isDone() && stop[0] == null && stopTries < 3) {
                stopTriggered = false; // the stop failed (a failover meanwhile?): again, at the gate
            }
            if (spec.stopWithSavepoint() && log.gateHeld(spec.stopGate()) && !stopTriggered
                    && log.gateCompleted(spec.failures()) >= spec.stopGate() && trigger.isDone()) {
                // The stop's gate's checkpoint completed in the attempt after the last fault (the
                // sources wait there in earlier attempts too, while a throw is still to come) and
                // the sources are held there: stop the job with a synchronous savepoint (terminate
                // false: no drain, no end of input; the sources stop, SourceOperator#stop(NO_DRAIN));
                // the job then ends.
                stopTriggered = true;
                stopTries++;
                trigger = cluster.stopWithSavepoint(id, savepointDir(spec), false,
                        org.apache.flink.core.execution.SavepointFormatType.CANONICAL).handle((path, t) -> {
                            stop[0] = t == null ? path : null;
                            stop[1] = t == null ? null : String.valueOf(t);
                            if (t == null) {
                                log.holdGate(-1);
                            }
                            return null;
                        });
            }
            if (checkpointDir != null) {
                keepCheckpoints(checkpointDir.resolve(id.toString()));
            }
            try {
                result.get(5, TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                // still running
            }
        }
        if (stopTriggered || stopTries > 0) {
            // the stop's future completes once the savepoint is written and the job has ended
            try {
                trigger.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                stop[1] = "the stop did not end in time";
            }
        }
        return new Job(id, result, stop[0], stop[1]);
    }

    /** The checkpoint id of the savepoint at {@code path} (a URI or a path), read from its {@code _metadata}. */
    static long savepointId(String path) throws java.io.IOException {
        java.nio.file.Path dir = path.contains(":") ? java.nio.file.Path.of(java.net.URI.create(path))
                : java.nio.file.Path.of(path);
        try (java.io.DataInputStream in = new java.io.DataInputStream(
                java.nio.file.Files.newInputStream(dir.resolve("_metadata")))) {
            return org.apache.flink.runtime.checkpoint.Checkpoints.loadCheckpointMetadata(in,
                    FlinkHarness.class.getClassLoader(), path).getCheckpointId();
        }
    }

    /** Where the savepoints of run {@code spec} go: {@code target/conformance/savepoints/<the trace's name>/}. */
    private static String savepointDir(RunSpec spec) {
        return java.nio.file.Path.of("target", "conformance", "savepoints",
                Runner.defaultTrace(spec).getFileName().toString().replace(".ndjson", "")).toAbsolutePath().toUri()
                .toString();
    }

    /**
     * Fault {@code k} of kind {@link RunSpec.Fault#TM_LOSS}, once a source of attempt {@code k}
     * has passed gate {@code k} (so after that gate's checkpoint completed): the TaskManager that
     * runs {@code join#<(seed + k) mod 2>} is terminated (MiniCluster#terminateTaskManager, as
     * Flink's own ITCases lose a TaskManager) and a fresh one started in its place (what a
     * cluster's resource manager would bring). The trace gets {@code FailTask} (cause
     * {@code tm-loss}) of every task of attempt {@code k} the harness knows to run there, before
     * the loss: the spec's failure is the hidden FailAndRestore that follows, which TLC takes once
     * an event of attempt {@code k + 1} comes. Every exchange of these jobs is all-to-all (one
     * failover region), so Flink's restart strategy restarts every task, as the seeded throw does.
     */
    private void maybeLoseTaskManager(RunSpec spec, TraceLog log) throws Exception {
        int k = log.faults();
        if (k >= spec.failures() || !log.gatePassed(k, k)) {
            return;
        }
        String victim = "join#" + Math.floorMod(spec.seed() + k, RunSpec.JOIN_PARALLELISM);
        String tm = log.tmOf(victim, k);
        int index = tm == null ? -1 : log.tmIndex(tm);
        if (index < 0) {
            throw new IllegalStateException("cannot tell which TaskManager runs " + victim + " in attempt " + k
                    + " (its TaskManager working directory names no tm_<index>)");
        }
        if (!log.claimFault(k)) {
            return;
        }
        for (String t : log.tasksOn(tm, k)) {
            log.event("FailTask", t, k, "cause", "tm-loss", "taskManager", index);
        }
        cluster.terminateTaskManager(index).get(30, TimeUnit.SECONDS);
        cluster.startTaskManager();
    }

    /**
     * The two-phase-commit sink's directory of run {@code spec}, emptied:
     * {@code target/conformance/sink/<the trace's name>/} with {@code pending/} and {@code committed/}.
     */
    static java.nio.file.Path freshSinkDir(RunSpec spec) throws java.io.IOException {
        String name = Runner.defaultTrace(spec).getFileName().toString().replace(".ndjson", "");
        java.nio.file.Path dir = java.nio.file.Path.of("target", "conformance", "sink", name).toAbsolutePath();
        if (java.nio.file.Files.exists(dir)) {
            try (java.util.stream.Stream<java.nio.file.Path> s = java.nio.file.Files.walk(dir)) {
                for (java.nio.file.Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    java.nio.file.Files.delete(p);
                }
            }
        }
        java.nio.file.Files.createDirectories(dir.resolve("pending"));
        java.nio.file.Files.createDirectories(dir.resolve("committed"));
        return dir;
    }

    /**
     * Copies each completed checkpoint's {@code _metadata} (written last, so complete when it
     * exists) from {@code job/chk-<id>} to {@code job/retained/chk-<id>}: Flink discards a
     * finished job's checkpoints even when told to retain them on cancellation, and the states
     * here are small enough to be inlined into the metadata, which is then the whole checkpoint.
     */
    private static void keepCheckpoints(java.nio.file.Path job) {
        if (!java.nio.file.Files.isDirectory(job)) {
            return;
        }
        try (java.util.stream.Stream<java.nio.file.Path> s = java.nio.file.Files.list(job)) {
            for (java.nio.file.Path chk : s.filter(p -> p.getFileName().toString().startsWith("chk-")).toList()) {
                java.nio.file.Path meta = chk.resolve("_metadata");
                java.nio.file.Path kept = job.resolve("retained").resolve(chk.getFileName()).resolve("_metadata");
                if (java.nio.file.Files.exists(meta) && !java.nio.file.Files.exists(kept)) {
                    java.nio.file.Files.createDirectories(kept.getParent());
                    java.nio.file.Path tmp = kept.resolveSibling("_metadata.tmp");
                    java.nio.file.Files.copy(meta, tmp, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                    java.nio.file.Files.move(tmp, kept, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
                }
            }
        } catch (java.io.IOException e) {
            // a checkpoint Flink discarded while it was copied: not kept, not read back
        }
    }

    /** The job graph of {@code spec}: its topology, checkpointing mode and restart strategy. */
    static JobGraph jobGraph(RunSpec spec, int maxConcurrent, java.nio.file.Path checkpointDir) {
        Configuration conf = new Configuration();
        if (checkpointDir != null) {
            conf.set(CheckpointingOptions.CHECKPOINT_STORAGE, "filesystem");
            conf.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, checkpointDir.toAbsolutePath().toUri().toString());
            conf.set(CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION,
                    org.apache.flink.configuration.ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
            conf.set(CheckpointingOptions.MAX_RETAINED_CHECKPOINTS, 1000);
            // The runs' states are small: inlined into each checkpoint's _metadata (below Flink's
            // small-file threshold), which is then the whole checkpoint (see keepCheckpoints).
            conf.set(CheckpointingOptions.FS_SMALL_FILE_THRESHOLD, MemorySize.parse("1m"));
        }
        // The checkpoint interval: periodic, or (0) so long that only the harness's triggers run;
        // the minimum pause keeps the coordinator's random first trigger out of the run too.
        Duration interval = spec.checkpointMillis() > 0 ? Duration.ofMillis(spec.checkpointMillis()) : Duration.ofHours(1);
        conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, interval);
        if (spec.checkpointMillis() == 0) {
            conf.set(CheckpointingOptions.MIN_PAUSE_BETWEEN_CHECKPOINTS, interval);
        }
        conf.set(CheckpointingOptions.MAX_CONCURRENT_CHECKPOINTS, maxConcurrent);
        conf.set(CheckpointingOptions.CHECKPOINTING_CONSISTENCY_MODE,
                spec.mode().equals("at-least-once") ? CheckpointingMode.AT_LEAST_ONCE : CheckpointingMode.EXACTLY_ONCE);
        boolean unaligned = spec.mode().equals("unaligned") || spec.mode().equals("alternating");
        conf.set(CheckpointingOptions.ENABLE_UNALIGNED, unaligned);
        if (spec.mode().equals("alternating")) {
            conf.set(CheckpointingOptions.ALIGNED_CHECKPOINT_TIMEOUT, Duration.ofMillis(spec.alignmentTimeoutMillis()));
        }
        if (spec.fault().failsCheckpoint()) {
            // CheckpointFailureManager fails the job once more checkpoints than this failed in a
            // row (a declined and an expired checkpoint both count; a completed one resets the count)
            conf.set(CheckpointingOptions.TOLERABLE_FAILURE_NUMBER, spec.tolerable());
        }
        if (spec.fault() == RunSpec.Fault.TIMEOUT) {
            // the coordinator expires a checkpoint not completed by then (CheckpointCoordinator's
            // canceller: CHECKPOINT_EXPIRED) and tells the tasks it aborted
            conf.set(CheckpointingOptions.CHECKPOINTING_TIMEOUT, Duration.ofMillis(RunSpec.TIMEOUT_MILLIS));
        }
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, spec.failures());
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(10));
        StreamExecutionEnvironment env = new StreamExecutionEnvironment(conf);
        env.setMaxParallelism(RunSpec.MAX_PARALLELISM);
        env.setParallelism(1);
        env.disableOperatorChaining();
        TypeInformation<Rec> type = TypeInformation.of(Rec.class);
        DataStream<Rec> keyedInput;
        if (spec.job().equals("join")) {
            DataStream<Rec> left = env.fromSource(new TracedSource(spec, "left#0"), WatermarkStrategy.noWatermarks(),
                    "left", type).uid("left");
            DataStream<Rec> right = env.fromSource(new TracedSource(spec, "right#0"), WatermarkStrategy.noWatermarks(),
                    "right", type).uid("right");
            keyedInput = left.union(right);
        } else {
            DataStream<Rec> src = env.fromSource(new TracedSource(spec, "src#0"), WatermarkStrategy.noWatermarks(),
                    "src", type).uid("src");
            // rebalance, not the default forward: Flink takes no unaligned checkpoint over a
            // pointwise (forward, rescale) channel (StreamPartitioner#isSupportsUnalignedCheckpoint
            // is false for them), so a forward edge would stay aligned in unaligned mode, which the
            // spec's unaligned protocol does not model (docs/conformance.md). One channel either way.
            DataStream<Rec> left = src.rebalance().process(new RelayFunction(spec, "left"), type).uid("left").name("left");
            DataStream<Rec> right = src.rebalance().process(new RelayFunction(spec, "right"), type).uid("right")
                    .name("right");
            keyedInput = left.union(right);
        }
        DataStream<Rec> joined = keyedInput.keyBy(new ByKey(), Types.INT).process(new JoinFunction(spec), type)
                .uid("join").name("join").setParallelism(RunSpec.JOIN_PARALLELISM);
        if (spec.transactionalSink()) {
            // The Sink V2 writer (uid "sink", the trace's sink#0) and its committer, which Flink
            // adds behind it: with chaining off, a task of its own, fed by a forward channel.
            joined.sinkTo(new TransactionalSink(spec)).uid("sink").name("sink");
        } else {
            joined.process(new RelayFunction(spec, "sink"), type).uid("sink").name("sink");
        }
        return env.getStreamGraph().getJobGraph();
    }

    /** The record's key (a class, not a lambda, so that Flink needs no type extraction). */
    static final class ByKey implements KeySelector<Rec, Integer> {
        private static final long serialVersionUID = 1L;

        @Override
        public Integer getKey(Rec r) {
            return r.key;
        }
    }

    @Override
    public void close() throws Exception {
        cluster.close();
    }
}
