package dev.consistentcut.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import dev.consistentcut.operator.RecordingSink;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The incremental store over random runs: tasks whose changelogs grow by {@code WriteState} and
 * are replaced by {@code CompactState}, checkpoints stored in turn, the directory reopened now and
 * then (the run continuing from the restored checkpoint, as a restarted job does). The claims:
 * <ul>
 *   <li>restore ({@code latest()}) gives back the checkpoint stored, equal in every field, from
 *       the same store and from a reopened one;
 *   <li>a segment is written once: a checkpoint's new shared file holds only the segments no
 *       retained checkpoint holds already;
 *   <li>every file a retained checkpoint references exists (RetainedRestorableInv), and every
 *       shared file on disk is referenced by one (no leak);
 *   <li>a store that deletes a shared file still referenced ({@link SubsumedUploadsDeletingFiles})
 *       is caught by the same check.
 * </ul>
 */
class IncrementalStoreTest {

    private static final List<String> TASKS = List.of("sink[0]", "sink/1 ü");

    @TempDir
    Path dir;

    private final List<String> warnings = new ArrayList<>();

    /** One task's changelogs as a task keeps them, for a run of the test. */
    private static final class TaskState {
        final RecordingSink sink = new RecordingSink();
        final Map<RecordId, Integer> ledger = new HashMap<>();
        Map<RecordId, Integer> changed = new HashMap<>();
        Changelog<byte[]> state;
        Changelog<Map<RecordId, Integer>> ledgerLog;

        TaskState(TaskSnapshot restored) {
            if (restored != null) {
                sink.restoreState(restored.operatorState());
                state = restored.stateChangelog();
                ledgerLog = restored.ledgerChangelog();
                ledger.putAll(restored.processed());
            }
        }

        void process(Record r) {
            sink.process(0, r);
            int times = ledger.merge(r.id(), 1, Integer::sum);
            changed.put(r.id(), times);
        }

        /** A snapshot: WriteState, or CompactState when {@code compact} (or nothing to extend). */
        TaskSnapshot snapshot(boolean compact) {
            byte[] delta = sink.snapshotChanges();
            if (compact || state == null) {
                byte[] whole = sink.snapshotState();
                state = Changelog.compactState(whole, whole.length);
                ledgerLog = Changelog.compactState(TaskSnapshot.frozen(ledger), ledger.size());
            } else {
                state = state.writeState(delta, delta.length);
                ledgerLog = ledgerLog.writeState(TaskSnapshot.frozen(changed), changed.size());
            }
            changed = new HashMap<>();
            long ledgerBytes = ledger.keySet().stream().mapToLong(TaskSnapshot::ledgerEntryBytes).sum();
            return TaskSnapshot.ofChangelogs(state, new OperatorStateMerge(sink), Math.toIntExact(sink.stateSize()),
                    ledgerLog, ledger.size(), ledgerBytes);
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6})
    void randomRunsRestoreWhatWasStoredAndWriteEachSegmentOnce(long seed) throws IOException {
        List<String> violations = run(seed, StoreFiles.REAL);
        assertEquals(List.of(), violations);
        assertEquals(List.of(), warnings);
    }

    @Test
    void aStoreDeletingASharedFileStillReferencedIsCaught() throws IOException {
        List<String> violations = run(1, new SubsumedUploadsDeletingFiles());
        assertTrue(violations.stream().anyMatch(v -> v.contains("which is missing")),
                "the twin deletes the base segment later checkpoints reference: " + violations);
    }

    @Test
    void sharedFilesOfAnInterruptedWriteAreDeletedByTheNextStore() throws IOException {
        DirectoryCheckpointStore s = new DirectoryCheckpointStore(dir, 2, warnings::add);
        s.store(SampleCheckpoints.sample(1));
        // A write of checkpoint 2 that died after its shared files: no private file references them.
        Files.copy(dir.resolve("shared-1-count.seg"), dir.resolve("shared-2-count.seg"));
        Files.write(dir.resolve("shared-2-sink.seg.tmp"), new byte[] {1});
        DirectoryCheckpointStore reopened = new DirectoryCheckpointStore(dir, 2, warnings::add);
        assertEquals(Optional.of(SampleCheckpoints.sample(1)), reopened.latest());
        reopened.store(SampleCheckpoints.sample(3));
        assertFalse(Files.exists(dir.resolve("shared-2-count.seg")));
        assertFalse(Files.exists(dir.resolve("shared-2-sink.seg.tmp")));
        assertTrue(warnings.stream().anyMatch(w -> w.contains("shared-2-count.seg: shared file no checkpoint references")),
                warnings.toString());
        assertEquals(Set.of("LATEST", "chk-1.ckpt", "chk-3.ckpt", "shared-1-count.seg", "shared-1-sink.seg",
                "shared-3-count.seg", "shared-3-sink.seg"), names());
    }

    @Test
    void aWholeCheckpointOfAnEarlierVersionIsStillReadAndSubsumedLikeAnother() throws IOException {
        Files.write(dir.resolve("chk-1.ckpt"), CheckpointCodec.encode(SampleCheckpoints.sample(1), "job"));
        Files.write(dir.resolve("LATEST"), DirectoryCheckpointStore.pointerBytes(1));
        DirectoryCheckpointStore s = new DirectoryCheckpointStore(dir, 1, warnings::add, "job");
        assertEquals(Optional.of(SampleCheckpoints.sample(1)), s.latest());
        s.store(SampleCheckpoints.sample(2));
        assertEquals(Optional.of(SampleCheckpoints.sample(2)), new DirectoryCheckpointStore(dir, 1, warnings::add, "job").latest());
        assertEquals(Set.of("LATEST", "chk-2.ckpt", "shared-2-count.seg", "shared-2-sink.seg"), names());
        assertEquals(List.of(), warnings);
    }

    @Test
    void aSegmentSharedByTwoCheckpointsIsDeletedOnlyWithTheLastOfThem() throws IOException {
        TaskState t = new TaskState(null);
        DirectoryCheckpointStore s = new DirectoryCheckpointStore(dir, 2, warnings::add);
        t.process(record(1));
        s.store(checkpoint(1, Map.of("a", t.snapshot(true))));
        t.process(record(2));
        s.store(checkpoint(2, Map.of("a", t.snapshot(false))));
        t.process(record(3));
        s.store(checkpoint(3, Map.of("a", t.snapshot(false)))); // subsumes 1; its base is still in use
        assertEquals(Set.of(1L, 2L, 3L), uploaders());
        assertEquals(Map.of(2L, Set.of("shared-1-a.seg", "shared-2-a.seg"),
                3L, Set.of("shared-1-a.seg", "shared-2-a.seg", "shared-3-a.seg")),
                CheckpointFiles.sharedFileReferences(dir));
        t.process(record(4));
        s.store(checkpoint(4, Map.of("a", t.snapshot(true)))); // a compaction: the old chain goes with 2
        t.process(record(5));
        s.store(checkpoint(5, Map.of("a", t.snapshot(false))));
        assertEquals(Set.of(4L, 5L), uploaders());
        assertEquals(List.of(), warnings);
    }

    @Test
    void aMaterialisationsUploadIsTakenOverByTheCheckpointThatFirstHoldsItNotWrittenAgain() throws IOException {
        TaskState t = new TaskState(null);
        DirectoryCheckpointStore s = new DirectoryCheckpointStore(dir, 1, warnings::add, "job");
        t.process(record(1));
        s.store(checkpoint(1, Map.of("a", t.snapshot(true))));
        t.process(record(2));
        s.store(checkpoint(2, Map.of("a", t.snapshot(false))));
        // a materialisation of the chains as they are now, uploaded before the task rebases on it
        Changelog<byte[]> statePoint = t.state;
        Changelog<Map<RecordId, Integer>> ledgerPoint = t.ledgerLog;
        byte[] mergedState = t.sink.snapshotState();
        Map<RecordId, Integer> mergedLedger = TaskSnapshot.frozen(t.ledger);
        assertTrue(s.materialisedUploads().upload("a", List.of(mergedState, mergedLedger)));
        assertTrue(Files.exists(dir.resolve("materialised-1-a.seg")));
        t.process(record(3));
        s.store(checkpoint(3, Map.of("a", t.snapshot(false)))); // taken before the rebase: holds none of it
        assertTrue(Files.exists(dir.resolve("materialised-1-a.seg")), "kept for the checkpoint that will hold it");
        t.state = t.state.compactState(statePoint, mergedState, mergedState.length);
        t.ledgerLog = t.ledgerLog.compactState(ledgerPoint, mergedLedger, mergedLedger.size());
        t.process(record(4));
        CompletedCheckpoint c4 = checkpoint(4, Map.of("a", t.snapshot(false)));
        s.store(c4);
        assertEquals(Set.of("LATEST", "chk-4.ckpt", "shared-3-a.seg", "shared-4-a.seg", "shared-4-a~m1.seg"), names(),
                "the staged upload became checkpoint 4's shared file, the later segments stay where they were");
        Path own = dir.resolve("shared-4-a.seg");
        assertEquals(2, IncrementalCodec.decodeShared(Files.readAllBytes(own), own.toString(), "a", 4).size(),
                "checkpoint 4 wrote its own new segments only, not the merged ones again");
        List<String> violations = new ArrayList<>();
        restorable(s, c4, "checkpoint 4", violations);
        assertEquals(List.of(), violations);
        assertEquals(List.of(), warnings);
    }

    @Test
    void anUploadNoCheckpointTakesOverIsDeletedWhenDroppedAtARestoreAtTheRunsEndOrAfterACrash() throws IOException {
        DirectoryCheckpointStore s = new DirectoryCheckpointStore(dir, 1, warnings::add, "job");
        s.store(SampleCheckpoints.sample(1));
        List<Object> merged = List.of(new byte[] {1, 2, 3});
        assertTrue(s.upload("count", merged));
        s.discard(merged); // the task dropped the materialisation
        assertFalse(Files.exists(dir.resolve("materialised-1-count.seg")), "a discard deletes it");
        assertTrue(s.upload("count", List.of(new byte[] {4})));
        s.latest(); // a restore: no task holds it any more
        assertFalse(Files.exists(dir.resolve("materialised-2-count.seg")), "a restore deletes it");
        assertTrue(s.upload("count", List.of(new byte[] {5})));
        s.endRun();
        assertFalse(Files.exists(dir.resolve("materialised-3-count.seg")), "the run's end deletes it");
        assertFalse(s.upload("count", List.of(new byte[] {6})), "and nothing is staged after it");
        DirectoryCheckpointStore crashed = new DirectoryCheckpointStore(dir, 1, warnings::add, "job");
        assertTrue(crashed.upload("count", List.of(new byte[] {7}))); // then the process dies
        Files.write(dir.resolve("materialised-2-sink.seg.tmp"), new byte[] {1});
        DirectoryCheckpointStore next = new DirectoryCheckpointStore(dir, 1, warnings::add, "job");
        next.store(SampleCheckpoints.sample(2));
        assertEquals(Set.of("LATEST", "chk-2.ckpt", "shared-2-count.seg", "shared-2-sink.seg"), names(),
                "the next process's first store deleted what the dead one staged");
        assertTrue(warnings.stream().anyMatch(w -> w.contains("materialised-1-count.seg: staged upload")), warnings.toString());
    }

    // ---------------------------------------------------------------- the run

    /** A random run in {@link #dir} with the store's file operations done by {@code files}; its violations. */
    private List<String> run(long seed, StoreFiles files) throws IOException {
        Random random = new Random(seed);
        int retain = 1 + random.nextInt(3);
        List<String> violations = new ArrayList<>();
        Map<String, TaskState> tasks = new HashMap<>();
        TASKS.forEach(n -> tasks.put(n, new TaskState(null)));
        DirectoryCheckpointStore store = new DirectoryCheckpointStore(dir, retain, warnings::add, "job", files);
        long offset = 0;
        for (long id = 1; id <= 40; id++) {
            for (TaskState t : tasks.values()) {
                int n = random.nextInt(20);
                for (int i = 0; i < n; i++) {
                    t.process(record(offset++ % 50));
                }
            }
            Map<String, TaskSnapshot> snapshots = new HashMap<>();
            Map<String, Integer> newSegments = new HashMap<>();
            for (Map.Entry<String, TaskState> e : tasks.entrySet()) {
                boolean compact = random.nextInt(6) == 0;
                snapshots.put(e.getKey(), e.getValue().snapshot(compact));
                newSegments.put(e.getKey(), 2);
            }
            CompletedCheckpoint c = checkpoint(id, snapshots);
            store.store(c);
            for (String task : TASKS) {
                Path shared = dir.resolve(SharedSegmentFiles.name(id, task));
                int written = IncrementalCodec.decodeShared(Files.readAllBytes(shared), shared.toString(), task, id).size();
                if (written != newSegments.get(task)) {
                    violations.add("checkpoint " + id + " wrote " + written + " segments of " + task + ", not "
                            + newSegments.get(task));
                }
            }
            restorable(store, c, "checkpoint " + id, violations);
            if (random.nextInt(5) == 0) { // a restart: a new store, the tasks continuing from the restored checkpoint
                store = new DirectoryCheckpointStore(dir, retain, warnings::add, "job", files);
                Optional<CompletedCheckpoint> restored = store.latest();
                restorable(store, c, "checkpoint " + id + " after reopening", violations);
                restored.ifPresent(r -> TASKS.forEach(n -> tasks.put(n, new TaskState(r.taskSnapshots().get(n)))));
            }
        }
        return violations;
    }

    /** Checks that {@code c} is what the store and a reopened one restore, and that no file is missing or leaked. */
    private void restorable(DirectoryCheckpointStore store, CompletedCheckpoint c, String when, List<String> violations)
            throws IOException {
        List<String> reading = new ArrayList<>();
        Optional<CompletedCheckpoint> fromStore = store.latest();
        Optional<CompletedCheckpoint> reopened = new DirectoryCheckpointStore(dir, 1, reading::add, "job").latest();
        reading.forEach(w -> violations.add(when + ": " + w));
        if (!fromStore.equals(Optional.of(c)) || !reopened.equals(Optional.of(c))) {
            violations.add(when + ": restored " + fromStore.map(CompletedCheckpoint::id) + " and "
                    + reopened.map(CompletedCheckpoint::id) + ", not the checkpoint stored");
        }
        SortedMap<Long, Set<String>> refs = CheckpointFiles.sharedFileReferences(dir);
        Set<String> referenced = new TreeSet<>();
        refs.values().forEach(referenced::addAll);
        Set<String> onDisk = new TreeSet<>(names());
        onDisk.removeIf(n -> !n.endsWith(".seg"));
        for (String f : referenced) {
            if (!onDisk.contains(f)) {
                violations.add(when + ": " + f + ", referenced, is missing");
            }
        }
        for (String f : onDisk) {
            if (!referenced.contains(f)) {
                violations.add(when + ": " + f + " is referenced by no retained checkpoint");
            }
        }
    }

    private static Record record(long offset) {
        return new Record(new RecordId("src", offset), offset % 7, offset);
    }

    private static CompletedCheckpoint checkpoint(long id, Map<String, TaskSnapshot> snapshots) {
        CheckpointStats stats = new CheckpointStats(id, id + 1, Map.of("src", 0L), Map.of("src", 0L), 1, 2, 3);
        return new CompletedCheckpoint(id, Map.of("src", 10 * id), snapshots,
                Map.of("src->sink", List.of(record(id))), stats);
    }

    private Set<Long> uploaders() throws IOException {
        Set<Long> ids = new TreeSet<>();
        for (String n : names()) {
            if (n.endsWith(".seg")) {
                ids.add(SharedSegmentFiles.uploader(n));
            }
        }
        return ids;
    }

    private Set<String> names() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return new TreeSet<>(files.map(p -> p.getFileName().toString()).toList());
        }
    }
}
