package dev.consistentcut.task;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.checkpoint.CheckpointCodec;
import dev.consistentcut.checkpoint.MaterialisedUploads;
import dev.consistentcut.checkpoint.TaskSnapshot;
import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import dev.consistentcut.operator.ChangelogState;
import dev.consistentcut.operator.Join;
import dev.consistentcut.operator.KeyedCount;
import dev.consistentcut.operator.Operator;
import dev.consistentcut.operator.RecordingSink;
import dev.consistentcut.operator.Sum;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A snapshot taken as changelogs (base and change segments, compacted now and then) must be the
 * whole snapshot: its state materialises to the operator's {@code snapshotState}, restoring it
 * gives the same operator state, and its ledger is the task's, over random update sequences with
 * random snapshots and restores (seeded, so a failure repeats). The materialiser is driven by the
 * test: it runs a materialisation at a random later step, or never, so rebases happen at every
 * distance from the point they were started at.
 */
class TaskChangelogsTest {

    private static final int SEEDS = 40;

    @Test
    void keyedCountChainsRestoreAsTheWholeState() {
        check(KeyedCount::new);
    }

    @Test
    void recordingSinkChainsRestoreAsTheWholeState() {
        check(RecordingSink::new);
    }

    @Test
    void operatorsWithoutChangesAreSnapshottedWhole() {
        check(Sum::new);
        check(Join::new);
    }

    @Test
    void aLaterSnapshotSeesWhatChangedSinceAnEarlierOneOfItsChain() {
        Operator op = new KeyedCount();
        TaskChangelogs logs = new TaskChangelogs(op, null);
        Map<RecordId, Integer> ledger = new HashMap<>();
        for (long off = 0; off < 5; off++) {
            process(op, logs, ledger, rec("a", off, 1));
        }
        TaskSnapshot first = logs.snapshot(ledger);
        process(op, logs, ledger, rec("a", 5, 1));
        process(op, logs, ledger, rec("a", 0, 1));
        TaskSnapshot second = logs.snapshot(ledger);
        assertEquals(java.util.Set.of(new RecordId("a", 0), new RecordId("a", 5)), second.changedSince(first));
        assertEquals(2, second.timesProcessed(new RecordId("a", 0)));
        assertEquals(java.util.Set.of(), second.changedSince(second), "nothing changed since itself");
        assertNull(first.changedSince(second), "an earlier snapshot does not extend a later one");
        assertNull(second.changedSince(new TaskSnapshot(new byte[0], Map.of())), "another chain");
    }

    @Test
    @Timeout(10)
    void aRebaseKeepsWhatChangedSinceThePreviousSnapshotIncremental() {
        // the completion check of a checkpoint's cut (CutInvariants) rechecks only the records
        // changedSince the previous checkpoint's snapshot, and the whole ledger when it is null
        ManualMaterialiser materialiser = new ManualMaterialiser();
        Operator op = new KeyedCount();
        TaskChangelogs logs = new TaskChangelogs(op, null, materialiser);
        Map<RecordId, Integer> ledger = new HashMap<>();
        TaskSnapshot started = null;
        for (long off = 0; !logs.materialising(); off++) {
            process(op, logs, ledger, rec("a", off, off % 5));
            started = logs.snapshot(ledger); // the snapshot that hands its chains to the materialiser
        }
        RecordId later = new RecordId("b", 0);
        process(op, logs, ledger, rec("b", 0, 1));
        TaskSnapshot beforeRebase = logs.snapshot(ledger);
        materialiser.runAll();
        RecordId last = new RecordId("b", 1);
        process(op, logs, ledger, rec("b", 1, 1));
        TaskSnapshot rebased = logs.snapshot(ledger);
        assertFalse(logs.materialising(), "the snapshot rebased on the materialisation");
        assertEquals(3, rebased.ledgerChangelog().length(),
                "the rebased ledger: the merged segment in place of the point's chain, then two segments");
        assertEquals(java.util.Set.of(last), rebased.changedSince(beforeRebase),
                "since a snapshot after the materialised point: only what came after it");
        assertEquals(java.util.Set.of(later, last), rebased.changedSince(started),
                "since the snapshot at the materialised point: what was written after it");
        assertEquals(Map.copyOf(ledger), Map.copyOf(rebased.processed()));
    }

    @Test
    @Timeout(10)
    void theMaterialiserUploadsWhatItMergedBeforeTheRebaseAndADroppedOneIsDiscarded() {
        // Flink uploads the materialised state within the materialisation (FLIP-158,
        // PeriodicMaterializationManager); the checkpoints after it only reference it
        List<List<Object>> uploaded = new ArrayList<>();
        List<Object> discarded = new ArrayList<>();
        MaterialisedUploads uploads = new MaterialisedUploads() {
            @Override
            public boolean upload(String task, List<Object> segments) {
                assertEquals("count[0]", task);
                uploaded.add(segments);
                return true;
            }

            @Override
            public void discard(List<Object> segments) {
                discarded.addAll(segments);
            }
        };
        ManualMaterialiser materialiser = new ManualMaterialiser();
        Operator op = new KeyedCount();
        TaskChangelogs logs = new TaskChangelogs(op, null, materialiser, uploads, "count[0]");
        Map<RecordId, Integer> ledger = new HashMap<>();
        for (long off = 0; !logs.materialising(); off++) {
            process(op, logs, ledger, rec("a", off, off % 5));
            logs.snapshot(ledger);
        }
        assertEquals(List.of(), uploaded, "nothing uploaded before the materialiser runs");
        materialiser.runAll();
        assertEquals(1, uploaded.size(), "the materialisation uploaded what it merged, before its result is offered");
        process(op, logs, ledger, rec("b", 0, 1));
        TaskSnapshot rebased = logs.snapshot(ledger);
        List<Object> bases = List.of(rebased.stateChangelog().segments().get(0), rebased.ledgerChangelog().segments().get(0));
        for (Object base : uploaded.get(0)) {
            assertTrue(bases.stream().anyMatch(b -> b == base), "the rebased chains begin with the uploaded segments themselves");
        }
        logs.abandon();
        assertEquals(List.of(), discarded, "a rebase used it: a restore after it leaves it to the store");

        Operator restored = new KeyedCount();
        restored.restoreState(rebased.operatorState());
        TaskChangelogs dropped = new TaskChangelogs(restored, rebased, materialiser, uploads, "count[0]");
        Map<RecordId, Integer> more = new HashMap<>(rebased.processed());
        for (long off = 0; !dropped.materialising(); off++) {
            process(restored, dropped, more, rec("c", off, 1));
            dropped.snapshot(more);
        }
        materialiser.runAll();
        dropped.abandon(); // done, never used
        assertEquals(uploaded.get(1).size(), discarded.size(), "an abandoned materialisation discards its upload");
        assertTrue(uploaded.get(1).stream().allMatch(u -> discarded.stream().anyMatch(d -> d == u)));
    }

    @Test
    @Timeout(10)
    void theTaskThreadNeverWaitsForTheMaterialiser() {
        // a materialiser that never runs: every snapshot must still return (a wait would hang
        // until the test's timeout), the chains growing past the limit meanwhile
        ManualMaterialiser stuck = new ManualMaterialiser();
        Operator op = new KeyedCount();
        TaskChangelogs logs = new TaskChangelogs(op, null, stuck);
        Map<RecordId, Integer> ledger = new HashMap<>();
        TaskSnapshot last = null;
        for (long off = 0; off < 3 * TaskChangelogs.MAX_SEGMENTS; off++) {
            process(op, logs, ledger, rec("a", off, off % 7));
            last = logs.snapshot(ledger);
        }
        assertEquals(1, stuck.queued(), "one materialisation in flight at most");
        assertTrue(last.stateChangelog().length() > TaskChangelogs.MAX_SEGMENTS, "the chain grows while it is");
        assertArrayEquals(op.snapshotState(), last.operatorState());
        stuck.runAll();
        process(op, logs, ledger, rec("a", 0, 1));
        TaskSnapshot rebased = logs.snapshot(ledger);
        assertArrayEquals(op.snapshotState(), rebased.operatorState(), "the rebased chain holds the whole state");
        assertEquals(Map.copyOf(ledger), Map.copyOf(rebased.processed()));
        assertTrue(rebased.stateChangelog().length() <= last.stateChangelog().length(),
                "the first snapshot after the materialisation rebased on it (else one segment more)");
        assertEquals(1, stuck.queued(), "and, still due, started the next one");
    }

    @Test
    void aMaterialisationInFlightAcrossARestoreIsDropped() {
        // Flink: a restore builds a new ChangelogKeyedStateBackend from the restored handles
        // (its materialised part and the changelog after it); nothing of the old one's
        // materialisation in flight reaches it
        ManualMaterialiser materialiser = new ManualMaterialiser();
        CountingKeyedCount op = new CountingKeyedCount();
        TaskChangelogs logs = new TaskChangelogs(op, null, materialiser);
        Map<RecordId, Integer> ledger = new HashMap<>();
        TaskSnapshot restorePoint = null;
        for (long off = 0; !logs.materialising(); off++) {
            process(op, logs, ledger, rec("a", off, off % 5));
            TaskSnapshot s = logs.snapshot(ledger);
            restorePoint = restorePoint == null ? s : restorePoint;
        }
        logs.abandon();
        assertFalse(logs.materialising());
        Operator restored = new KeyedCount();
        restored.restoreState(restorePoint.operatorState());
        TaskChangelogs after = new TaskChangelogs(restored, restorePoint, materialiser);
        assertFalse(after.materialising(), "a restored instance starts with none in flight");
        materialiser.runAll();
        assertEquals(0, op.merges, "the abandoned materialisation never ran its merge");
        Map<RecordId, Integer> restoredLedger = new HashMap<>(restorePoint.processed());
        process(restored, after, restoredLedger, rec("b", 0, 1));
        TaskSnapshot s = after.snapshot(restoredLedger);
        assertArrayEquals(restored.snapshotState(), s.operatorState(), "the restored chain goes on from its point");
        assertEquals(Map.copyOf(restoredLedger), Map.copyOf(s.processed()));
    }

    @Test
    void aFailedMaterialisationIsDroppedAndTriedAgainUntilTooManyFailInARow() {
        // Flink: PeriodicMaterializationManager retries up to state.backend.changelog.max-failures-allowed
        // consecutive failures, then fails the task
        CountingKeyedCount op = new CountingKeyedCount();
        op.failMerges = true;
        TaskChangelogs logs = new TaskChangelogs(op, null, Runnable::run);
        Map<RecordId, Integer> ledger = new HashMap<>();
        long off = 0;
        IllegalStateException failed = null;
        for (int snapshots = 0; snapshots < 10 * TaskChangelogs.MAX_SEGMENTS && failed == null; snapshots++) {
            process(op, logs, ledger, rec("a", off++, off % 3));
            try {
                TaskSnapshot s = logs.snapshot(ledger);
                // (the state's whole bytes need the failing merge: the ledger shows the chains intact)
                assertEquals(Map.copyOf(ledger), Map.copyOf(s.processed()), "a failed materialisation changes nothing");
            } catch (IllegalStateException e) {
                failed = e;
            }
        }
        assertNotNull(failed, "too many failed materialisations in a row fail a snapshot");
        assertEquals(TaskChangelogs.MAX_FAILED_MATERIALISATIONS + 1, op.merges, "each failure was dropped and tried again");
    }

    /** An executor the test runs: a queued materialisation runs only when the test says so. */
    private static final class ManualMaterialiser implements Executor {
        private final ArrayDeque<Runnable> queue = new ArrayDeque<>();

        @Override
        public void execute(Runnable r) {
            queue.add(r);
        }

        int queued() {
            return queue.size();
        }

        void runAll() {
            while (!queue.isEmpty()) {
                queue.poll().run();
            }
        }
    }

    /** A keyed count whose merges are counted (a materialisation calls it), and fail if told. */
    private static final class CountingKeyedCount implements Operator, ChangelogState {
        private final KeyedCount inner = new KeyedCount();
        int merges;
        boolean failMerges;

        @Override
        public byte[] mergeState(List<byte[]> segments) {
            merges++;
            if (failMerges) {
                throw new IllegalArgumentException("a merge that fails");
            }
            return inner.mergeState(segments);
        }

        @Override
        public byte[] snapshotChanges() {
            return inner.snapshotChanges();
        }

        @Override
        public long stateSize() {
            return inner.stateSize();
        }

        @Override
        public Record process(int input, Record r) {
            return inner.process(input, r);
        }

        @Override
        public byte[] snapshotState() {
            return inner.snapshotState();
        }

        @Override
        public void restoreState(byte[] state) {
            inner.restoreState(state);
        }
    }

    private static void check(Supplier<Operator> factory) {
        for (int seed = 0; seed < SEEDS; seed++) {
            Random rnd = new Random(seed);
            Operator op = factory.get();
            ManualMaterialiser materialiser = new ManualMaterialiser();
            TaskChangelogs logs = new TaskChangelogs(op, null, materialiser);
            Map<RecordId, Integer> ledger = new HashMap<>();
            List<TaskSnapshot> taken = new ArrayList<>();
            List<byte[]> wholeStates = new ArrayList<>();
            List<Map<RecordId, Integer>> wholeLedgers = new ArrayList<>();
            long offset = 0;
            int steps = 50 + rnd.nextInt(400);
            for (int step = 0; step < steps; step++) {
                int what = rnd.nextInt(20);
                if (rnd.nextInt(8) == 0) {
                    materialiser.runAll();
                }
                if (what == 0 && !taken.isEmpty()) {
                    // a restore of a random earlier snapshot: the chain goes on from there
                    int i = rnd.nextInt(taken.size());
                    op = factory.get();
                    op.restoreState(taken.get(i).operatorState());
                    ledger = new HashMap<>(taken.get(i).processed());
                    logs.abandon();
                    logs = new TaskChangelogs(op, taken.get(i), materialiser);
                } else if (what < 4) {
                    TaskSnapshot s = logs.snapshot(ledger);
                    taken.add(s);
                    wholeStates.add(op.snapshotState());
                    wholeLedgers.add(Map.copyOf(ledger));
                } else {
                    // a record read again now and then (a replay after a restore counts it twice)
                    long off = rnd.nextInt(10) == 0 && offset > 0 ? rnd.nextLong(offset) : offset++;
                    process(op, logs, ledger, rec(rnd.nextBoolean() ? "s#0" : "s#1", off, rnd.nextInt(8)));
                }
            }
            for (int i = 0; i < taken.size(); i++) {
                TaskSnapshot s = taken.get(i);
                String where = "seed " + seed + ", snapshot " + i + " of " + factory.get().getClass().getSimpleName();
                assertArrayEquals(wholeStates.get(i), s.operatorState(), where);
                assertEquals(wholeStates.get(i).length, s.stateSize(), where);
                Operator restored = factory.get();
                restored.restoreState(s.operatorState());
                assertArrayEquals(wholeStates.get(i), restored.snapshotState(), where);
                assertEquals(wholeLedgers.get(i), s.processed(), where);
                for (RecordId id : wholeLedgers.get(i).keySet()) {
                    assertEquals(wholeLedgers.get(i).get(id), s.timesProcessed(id), where);
                }
                TaskSnapshot whole = new TaskSnapshot(wholeStates.get(i), wholeLedgers.get(i));
                assertEquals(whole, s, where);
                assertEquals(CheckpointCodec.stateSize(Map.of("t", whole)), CheckpointCodec.stateSize(Map.of("t", s)), where);
                assertNotNull(s.ledgerChangelog());
            }
        }
    }

    private static void process(Operator op, TaskChangelogs logs, Map<RecordId, Integer> ledger, Record r) {
        int input = op.inputArity() == 2 ? (int) (r.id().offset() % 2) : 0;
        op.process(input, r);
        logs.processed(r.id(), ledger.merge(r.id(), 1, Integer::sum));
    }

    private static Record rec(String source, long offset, long key) {
        return new Record(new RecordId(source, offset), key, offset * 3 + 1);
    }
}
