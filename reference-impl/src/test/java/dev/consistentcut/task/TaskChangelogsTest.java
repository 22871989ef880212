package dev.consistentcut.task;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.checkpoint.CheckpointCodec;
import dev.consistentcut.checkpoint.TaskSnapshot;
import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import dev.consistentcut.operator.Join;
import dev.consistentcut.operator.KeyedCount;
import dev.consistentcut.operator.Operator;
import dev.consistentcut.operator.RecordingSink;
import dev.consistentcut.operator.Sum;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * A snapshot taken as changelogs (base and change segments, compacted now and then) must be the
 * whole snapshot: its state materialises to the operator's {@code snapshotState}, restoring it
 * gives the same operator state, and its ledger is the task's, over random update sequences with
 * random snapshots and restores (seeded, so a failure repeats).
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

    private static void check(Supplier<Operator> factory) {
        for (int seed = 0; seed < SEEDS; seed++) {
            Random rnd = new Random(seed);
            Operator op = factory.get();
            TaskChangelogs logs = new TaskChangelogs(op, null);
            Map<RecordId, Integer> ledger = new HashMap<>();
            List<TaskSnapshot> taken = new ArrayList<>();
            List<byte[]> wholeStates = new ArrayList<>();
            List<Map<RecordId, Integer>> wholeLedgers = new ArrayList<>();
            long offset = 0;
            int steps = 50 + rnd.nextInt(400);
            for (int step = 0; step < steps; step++) {
                int what = rnd.nextInt(20);
                if (what == 0 && !taken.isEmpty()) {
                    // a restore of a random earlier snapshot: the chain goes on from there
                    int i = rnd.nextInt(taken.size());
                    op = factory.get();
                    op.restoreState(taken.get(i).operatorState());
                    ledger = new HashMap<>(taken.get(i).processed());
                    logs = new TaskChangelogs(op, taken.get(i));
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
                assertTrue(s.stateChangelog().length() <= TaskChangelogs.MAX_SEGMENTS, where);
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
