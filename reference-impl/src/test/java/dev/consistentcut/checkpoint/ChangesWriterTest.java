package dev.consistentcut.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import dev.consistentcut.operator.RecordingSink;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A task's changes written by the task ({@link DirectoryCheckpointStore#persist}), before its
 * acknowledgement, as Flink's changelog writer does (FLIP-158: FsStateChangelogWriter#persist
 * uploads a task's changes on the task's side; the checkpoint coordinator only registers the
 * handles, CheckpointCoordinator#completePendingCheckpoint): the write takes no lock of the
 * store, so the coordinator's store of an earlier checkpoint goes on meanwhile; the store of the
 * checkpoint takes the written file over instead of writing the segments; and what no completed
 * checkpoint takes over (an aborted or declined checkpoint's, or a killed process's, FLINK-30461)
 * is deleted.
 */
@Timeout(60)
class ChangesWriterTest {

    @TempDir
    Path dir;

    private final List<String> warnings = Collections.synchronizedList(new ArrayList<>());

    @Test
    void aHeldChangesWriteHoldsNoLockAndTheCoordinatorsStoreOfAnEarlierCheckpointCompletesMeanwhile()
            throws Exception {
        CountDownLatch writing = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicReference<DirectoryCheckpointStore> store = new AtomicReference<>();
        List<Boolean> lockHeldWhileWriting = Collections.synchronizedList(new ArrayList<>());
        StoreFiles held = new ForwardingStoreFiles() {
            @Override
            public void write(Path file, byte[] bytes) throws IOException {
                if (file.getFileName().toString().startsWith("changes-")) {
                    lockHeldWhileWriting.add(Thread.holdsLock(store.get()));
                    writing.countDown();
                    try {
                        release.await(); // held until the test has looked: never timed
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IOException(e);
                    }
                }
                super.write(file, bytes);
            }
        };
        store.set(new DirectoryCheckpointStore(dir, 2, warnings::add, "job", held));
        DirectoryCheckpointStore s = store.get();
        CompletedCheckpoint c2 = SampleCheckpoints.sample(2);
        AtomicBoolean written = new AtomicBoolean();
        Thread task = new Thread(() -> written.set(s.persist("count", 2, c2.taskSnapshots().get("count"))), "task");
        task.start();
        try {
            writing.await();
            assertEquals(List.of(false), lockHeldWhileWriting, "the task's write holds the store's lock");
            s.store(SampleCheckpoints.sample(1)); // the coordinator completes checkpoint 1 meanwhile
            assertEquals(List.of(1L), s.retainedIds(), "checkpoint 2 is not complete while its changes are written");
            assertFalse(Files.exists(dir.resolve("changes-1-count.seg")), "the write is still held");
        } finally {
            release.countDown();
            task.join();
        }
        assertTrue(written.get());
        assertTrue(Files.exists(dir.resolve("changes-1-count.seg")));
        s.store(c2);
        assertEquals(Set.of("LATEST", "chk-1.ckpt", "chk-2.ckpt", "shared-1-count.seg", "shared-1-sink.seg",
                        "shared-2-count~m1.seg", "shared-2-sink.seg"), names(),
                "checkpoint 2 took the task's file over and wrote only what no task wrote (the sink's)");
        assertEquals(Optional.of(c2), new DirectoryCheckpointStore(dir, 2, warnings::add, "job").latest());
        assertEquals(List.of(), warnings);
    }

    @Test
    void changesWrittenForACheckpointThatNeverCompletedAreDeletedOnResume() throws IOException {
        DirectoryCheckpointStore s = new DirectoryCheckpointStore(dir, 1, warnings::add, "job");
        s.store(SampleCheckpoints.sample(1));
        assertTrue(s.persist("count", 2, SampleCheckpoints.sample(2).taskSnapshots().get("count")));
        Files.write(dir.resolve("changes-2-sink.seg.tmp"), new byte[] {1}); // and one killed mid-write
        // kill -9 here: between the task's write and checkpoint 2's private file
        DirectoryCheckpointStore resumed = new DirectoryCheckpointStore(dir, 1, warnings::add, "job");
        assertEquals(Optional.of(SampleCheckpoints.sample(1)), resumed.latest());
        resumed.store(SampleCheckpoints.sample(3));
        assertEquals(Set.of("LATEST", "chk-3.ckpt", "shared-3-count.seg", "shared-3-sink.seg"), names(),
                "the resumed process's first store deleted the dead one's changes");
        assertTrue(warnings.stream().anyMatch(w -> w.contains("changes-1-count.seg: staged upload")), warnings.toString());
        assertTrue(warnings.stream().anyMatch(w -> w.contains("changes-2-sink.seg.tmp: leftover temporary file")),
                warnings.toString());
    }

    @Test
    void changesOfAnAbortedCheckpointAreTakenOverByTheNextThatHoldsThemAndDeletedWhenNoneDoes() throws IOException {
        DirectoryCheckpointStore s = new DirectoryCheckpointStore(dir, 1, warnings::add, "job");
        Chain t = new Chain();
        s.store(checkpoint(1, t.snapshot(false)));
        TaskSnapshot aborted = t.snapshot(false);
        assertTrue(s.persist("a", 2, aborted)); // checkpoint 2 is aborted after this
        TaskSnapshot next = t.snapshot(false); // holds checkpoint 2's segments and one more
        assertTrue(s.persist("a", 3, next));
        assertEquals(Set.of("LATEST", "chk-1.ckpt", "shared-1-a.seg", "changes-1-a.seg", "changes-2-a.seg"), names(),
                "checkpoint 3's write is its own segments only");
        s.store(checkpoint(3, next));
        assertEquals(Set.of("LATEST", "chk-3.ckpt", "shared-1-a.seg", "shared-3-a~m1.seg", "shared-3-a~m2.seg"), names(),
                "checkpoint 3 took both over");
        TaskSnapshot dropped = t.snapshot(false);
        assertTrue(s.persist("a", 4, dropped)); // checkpoint 4 is declined; then the chain is compacted
        TaskSnapshot compacted = t.snapshot(true);
        assertTrue(s.persist("a", 6, compacted)); // for a later checkpoint: kept while 5 completes
        s.store(checkpoint(5, compacted));
        assertEquals(Set.of("LATEST", "chk-5.ckpt", "shared-5-a~m4.seg"), names(),
                "checkpoint 4's changes, which no checkpoint holds any more, are deleted when 5 completes");
        TaskSnapshot later = t.snapshot(false);
        assertTrue(s.persist("a", 7, later));
        s.store(checkpoint(6, later)); // taken over by a checkpoint below the one it was written for
        assertFalse(names().stream().anyMatch(n -> n.startsWith("changes-")), names().toString());
        assertEquals(Optional.of(checkpoint(6, later)), new DirectoryCheckpointStore(dir, 1, warnings::add, "job").latest());
        assertEquals(List.of(), warnings);
    }

    @Test
    void changesForALaterCheckpointSurviveTheCompletionOfAnEarlierOneAndGoWithTheirOwn() throws IOException {
        DirectoryCheckpointStore s = new DirectoryCheckpointStore(dir, 1, warnings::add, "job");
        Chain a = new Chain();
        Chain b = new Chain();
        assertTrue(s.persist("b", 2, b.snapshot(false))); // task b: for checkpoint 2, which will not hold it
        s.store(checkpoint(1, a.snapshot(false)));
        assertTrue(Files.exists(dir.resolve("changes-1-b.seg")), "kept while checkpoint 2 may take it: " + names());
        s.store(checkpoint(2, a.snapshot(false)));
        assertEquals(Set.of("LATEST", "chk-2.ckpt", "shared-1-a.seg", "shared-2-a.seg"), names(),
                "deleted when checkpoint 2 completed without it");
        assertEquals(List.of(), warnings);
    }

    @Test
    void onlyWhatNoFileHoldsIsWrittenAndNothingAfterTheRunsEnd() throws IOException {
        DirectoryCheckpointStore s = new DirectoryCheckpointStore(dir, 1, warnings::add, "job");
        Chain t = new Chain();
        TaskSnapshot first = t.snapshot(false);
        s.store(checkpoint(1, first));
        assertFalse(s.persist("a", 2, first), "every segment is in checkpoint 1's file");
        TaskSnapshot second = t.snapshot(false);
        assertTrue(s.persist("a", 2, second));
        assertFalse(s.persist("a", 3, second), "and now in the staged file");
        TaskSnapshot finalState = t.snapshot(false);
        assertTrue(s.persist("a", Long.MAX_VALUE, finalState)); // a task's final snapshot
        s.store(checkpoint(2, second));
        assertTrue(Files.exists(dir.resolve("changes-2-a.seg")), "the final state is kept for a later checkpoint");
        s.endRun();
        assertFalse(Files.exists(dir.resolve("changes-2-a.seg")), "the run's end deletes what no checkpoint took");
        assertFalse(s.persist("a", 9, t.snapshot(false)), "nothing is written after the run's end");
        assertEquals(Set.of("LATEST", "chk-2.ckpt", "shared-1-a.seg", "shared-2-a~m1.seg"), names());
    }

    @Test
    void aRestoreDeletesTheChangesOfTheChainsItReplacesAndAFailedWriteLeavesNoFile() throws IOException {
        DirectoryCheckpointStore s = new DirectoryCheckpointStore(dir, 1, warnings::add, "job");
        Chain t = new Chain();
        s.store(checkpoint(1, t.snapshot(false)));
        assertTrue(s.persist("a", 2, t.snapshot(false)));
        s.latest();
        assertEquals(Set.of("LATEST", "chk-1.ckpt", "shared-1-a.seg"), names(), "a restore deletes it");
        DirectoryCheckpointStore failing = new DirectoryCheckpointStore(dir, 1, warnings::add, "job", new ForwardingStoreFiles() {
            @Override
            public void fsync(Path file) throws IOException {
                if (file.getFileName().toString().startsWith("changes-")) {
                    throw new IOException("disk full");
                }
                super.fsync(file);
            }
        });
        TaskSnapshot second = t.snapshot(false);
        assertFalse(failing.persist("a", 2, second));
        assertEquals(Set.of("LATEST", "chk-1.ckpt", "shared-1-a.seg"), names(), "no file of the failed write left");
        failing.store(checkpoint(2, second));
        assertTrue(Files.exists(dir.resolve("shared-2-a.seg")), "the store wrote the segments itself");
    }

    @Test
    void aStateWrittenWholeIsLeftToTheStore() throws IOException {
        DirectoryCheckpointStore s = new DirectoryCheckpointStore(dir, 1, warnings::add, "job");
        Changelog<byte[]> chain = Changelog.base(new byte[] {1}, 1).writeState(new byte[] {2}, 1);
        Map<RecordId, Integer> ledger = Map.of(new RecordId("s", 1), 1);
        TaskSnapshot whole = TaskSnapshot.ofChangelogs(chain, StateMerge.WHOLE, 1, Changelog.base(ledger, 1), 1, 10);
        assertTrue(s.persist("a", 1, whole));
        Path staged = dir.resolve("changes-1-a.seg");
        assertEquals(List.of(ledger), IncrementalCodec.decodeShared(Files.readAllBytes(staged), staged.toString(), "a", 0),
                "the ledger only: the state's chain is written whole, as one new segment, by the store");
    }

    @Test
    void aStoreThatKeepsNoFilesWritesNothingAhead() {
        TaskSnapshot snapshot = SampleCheckpoints.sample(1).taskSnapshots().get("count");
        assertFalse(MaterialisedUploads.NONE.persist("count", 1, snapshot));
        assertFalse(new InMemoryCheckpointStore(1).materialisedUploads().persist("count", 1, snapshot),
                "its store of the checkpoint keeps the snapshot as it is");
    }

    // ---------------------------------------------------------------- helpers

    /** One task's changelogs: each snapshot a new state and ledger segment, or a compaction. */
    private static final class Chain {
        private final RecordingSink sink = new RecordingSink();
        private Changelog<byte[]> state;
        private Changelog<Map<RecordId, Integer>> ledger;
        private final Map<RecordId, Integer> all = new HashMap<>();
        private int n;

        TaskSnapshot snapshot(boolean compact) {
            n++;
            RecordId id = new RecordId("src", n);
            all.put(id, 1);
            sink.process(0, new Record(id, n, 0));
            byte[] delta = sink.snapshotChanges();
            if (state == null || compact) {
                byte[] whole = sink.snapshotState();
                state = Changelog.compactState(whole, whole.length);
                ledger = Changelog.compactState(TaskSnapshot.frozen(all), all.size());
            } else {
                state = state.writeState(delta, delta.length);
                ledger = ledger.writeState(Map.of(id, 1), 1);
            }
            return TaskSnapshot.ofChangelogs(state, new OperatorStateMerge(sink), Math.toIntExact(sink.stateSize()),
                    ledger, all.size(), all.size() * 10L);
        }
    }

    private static CompletedCheckpoint checkpoint(long id, TaskSnapshot a) {
        CheckpointStats stats = new CheckpointStats(id, id + 1, Map.of("a", 1L), Map.of("a", 0L), 0, 0, 0);
        return new CompletedCheckpoint(id, Map.of(), Map.of("a", a), Map.of(), stats);
    }

    private Set<String> names() throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return new TreeSet<>(files.map(p -> p.getFileName().toString()).toList());
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
