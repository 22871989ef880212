package dev.consistentcut.checkpoint;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.check.Violation;
import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.Partitioning;
import dev.consistentcut.operator.KeyedCount;
import dev.consistentcut.runtime.RunOptions;
import dev.consistentcut.runtime.RunResult;
import dev.consistentcut.runtime.SimulationRuntime;
import dev.consistentcut.sink.FileSinkDirectory;
import dev.consistentcut.sink.SinkDirectory;
import dev.consistentcut.sink.SinkFiles;
import dev.consistentcut.sink.TransactionalFileSink;
import dev.consistentcut.source.InMemorySourceLog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.function.UnaryOperator;

/**
 * The power-loss test's harness: records one run of a small durable job (two sources into a keyed
 * count into the two-phase-commit sink; the checkpoints in a {@link DirectoryCheckpointStore}, the
 * output in a sink directory, both through the recording seams into one {@link PowerLossDisk}),
 * then resumes the job from each crash state that run may leave, with the engine's own restore
 * path (a new {@link SimulationRuntime} over the store's directory: the store's {@code latest()},
 * the sink's re-commit and abort) and checks each one:
 * <ul>
 *   <li><b>the pointer holds</b>: the store's reader needs no fallback (only leftover temporary
 *       files are reported; before the first checkpoint is stored, a missing pointer too);
 *   <li><b>a stored checkpoint stays</b>: the restored checkpoint is at least the newest one whose
 *       {@code store} had returned (the sink may have committed its transactions);
 *   <li><b>the resumed run holds</b>: its own checks (consistent cuts, {@code CutInvariants}'
 *       exactly-once output of the sink's committed files, no duplicate), no failure, and no
 *       transaction file left behind.
 * </ul>
 * The resuming process runs the correct store and sink: a broken twin is only the crashed run's.
 * It runs them without their fsyncs ({@link #UNSYNCED_STORE_FILES}, {@link UnsyncedSinkDirectory}):
 * no power loss follows a resume, so an fsync there changes nothing the checks can see (every file
 * and name is the same, read back by the same process), and at about 31 real fsyncs per resumed
 * run, 2-3 ms each on a shared disk, they were half of the test's time or more (about 1,070 resumes
 * between this test and its broken twins).
 *
 * <p><b>Threading contract.</b> Confined to the test's thread (the simulation runs on it).
 */
final class PowerLossRun {

    static final String JOB = "power-loss-test";
    static final int RETAIN = 2;
    /**
     * The run's draws: 6 checkpoints, and a commit followed by a checkpoint that brings the sink no
     * record (its pre-commit has no transaction file, so no directory fsync): the one case where
     * the commit's own directory fsync is all that makes the commit durable before a checkpoint
     * that no longer lists the transaction is stored.
     */
    private static final long SEED = 10;
    private static final String STORE = "store";
    private static final String SINK = "sink";

    /**
     * The store's file operations in a resumed run: {@link StoreFiles#REAL}'s writes, renames and
     * deletes, without its fsyncs (see the class comment).
     */
    static final StoreFiles UNSYNCED_STORE_FILES = new StoreFiles() {
        @Override
        public void write(Path file, byte[] bytes) throws IOException {
            StoreFiles.REAL.write(file, bytes);
        }

        @Override
        public void fsync(Path file) {
            // no power loss follows a resume
        }

        @Override
        public void rename(Path from, Path to) throws IOException {
            StoreFiles.REAL.rename(from, to);
        }

        @Override
        public void fsyncDirectory(Path dir) {
            // no power loss follows a resume
        }

        @Override
        public void delete(Path file) throws IOException {
            StoreFiles.REAL.delete(file);
        }
    };

    private final Path tmp;
    private final PowerLossDisk disk = new PowerLossDisk(STORE, SINK);
    private final RunResult recorded;
    private int resumed;

    /**
     * Records the run in {@code tmp}, with the store's file operations through {@code storeTwin}
     * and the sink's through {@code sinkTwin} (identity: the correct ones).
     */
    PowerLossRun(Path tmp, UnaryOperator<StoreFiles> storeTwin, UnaryOperator<SinkDirectory> sinkTwin) throws IOException {
        this.tmp = tmp;
        Path storeDir = Files.createDirectories(tmp.resolve("recorded-store"));
        StoreFiles files = storeTwin.apply(new RecordingStoreFiles(disk, STORE));
        SinkDirectory sink = sinkTwin.apply(new RecordingSinkDirectory(disk, SINK));
        recorded = new SimulationRuntime(job(sink, new SplittableRandom(SEED)), BarrierHandlers.aligned(), options()
                .store(() -> new DirectoryCheckpointStore(storeDir, RETAIN, w -> { }, JOB, files))
                .onCheckpoint(c -> disk.stored(c.id())) // its store returned: from here on it must survive
                .build()).run();
    }

    /** The job: fixed input, one sink instance writing to {@code dir} with transaction ids from {@code ids}. */
    private static JobGraph job(SinkDirectory dir, SplittableRandom ids) {
        return JobGraph.builder()
                .defaultCapacity(2)
                .source("s1", InMemorySourceLog.randomKeys(16, 4, 1))
                .source("s2", InMemorySourceLog.randomKeys(16, 4, 2))
                .operator("count", 1, KeyedCount::new)
                .operator("sink", 1, () -> new TransactionalFileSink(dir, 0, ids))
                .edge("s1", "count", Partitioning.HASH)
                .edge("s2", "count", Partitioning.HASH)
                .edge("count", "sink", Partitioning.HASH)
                .build();
    }

    private static RunOptions.Builder options() {
        return RunOptions.builder().seed(SEED).triggerProbability(0.12).endOfInput(true);
    }

    RunResult recorded() {
        return recorded;
    }

    PowerLossDisk disk() {
        return disk;
    }

    /** How many crash states were resumed. */
    int resumed() {
        return resumed;
    }

    /** Resumes every crash state; one line per violation (empty: every state holds), at most {@code limit}. */
    List<String> resumeEveryCrashState(int limit) throws IOException {
        List<String> violations = new ArrayList<>();
        for (PowerLossDisk.CrashState s : disk.crashStates()) {
            resume(s, violations);
            if (violations.size() >= limit) {
                break;
            }
        }
        return violations;
    }

    private void resume(PowerLossDisk.CrashState s, List<String> violations) throws IOException {
        Path root = Files.createDirectory(tmp.resolve("state-" + resumed++));
        Path storeDir = materialize(s.files().get(STORE), root.resolve(STORE));
        Path sinkDir = materialize(s.files().get(SINK), root.resolve(SINK));
        List<String> warnings = new ArrayList<>();
        Optional<CompletedCheckpoint> latest = new DirectoryCheckpointStore(storeDir, RETAIN, warnings::add, JOB).latest();
        for (String w : warnings) {
            boolean noPointerYet = s.stored() == 0 && (w.contains("LATEST: missing") || w.startsWith("using "));
            if (!w.contains("leftover temporary file") && !noPointerYet) {
                violations.add(s.where() + ": the store's reader fell back: " + w);
            }
        }
        long restored = latest.map(CompletedCheckpoint::id).orElse(0L);
        if (restored < s.stored()) {
            violations.add(s.where() + ": checkpoint " + s.stored() + " was stored, but the store restores "
                    + (restored == 0 ? "none" : "checkpoint " + restored));
        }
        try {
            RunResult r = new SimulationRuntime(job(new UnsyncedSinkDirectory(new FileSinkDirectory(sinkDir)), new SplittableRandom()),
                    BarrierHandlers.aligned(), options()
                    .store(() -> new DirectoryCheckpointStore(storeDir, RETAIN, w -> { }, JOB, UNSYNCED_STORE_FILES)).build()).run();
            if (!r.holds()) {
                violations.add(s.where() + ": the resumed run (from " + (restored == 0 ? "the start" : "checkpoint " + restored)
                        + ") violates " + r.violations().stream().limit(3).map(Violation::message).toList());
            }
            try (var names = Files.list(sinkDir)) {
                List<String> left = names.map(p -> p.getFileName().toString()).filter(SinkFiles::isTemp).toList();
                if (!left.isEmpty()) {
                    violations.add(s.where() + ": the resumed run left transaction files " + left);
                }
            }
        } catch (RuntimeException e) {
            violations.add(s.where() + ": the resume failed: " + e);
        }
    }

    private static Path materialize(Map<String, byte[]> files, Path dir) throws IOException {
        Files.createDirectory(dir);
        for (Map.Entry<String, byte[]> e : files.entrySet()) {
            Files.write(dir.resolve(e.getKey()), e.getValue());
        }
        return dir;
    }
}
