package dev.consistentcut.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.checkpoint.CheckpointStats;
import dev.consistentcut.checkpoint.CheckpointStatus;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.checkpoint.TaskSnapshot;
import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.Partitioning;
import dev.consistentcut.graph.PhysicalGraph;
import dev.consistentcut.message.Barrier;
import dev.consistentcut.message.CancelBarrier;
import dev.consistentcut.message.EndOfPartition;
import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import dev.consistentcut.operator.KeyedCount;
import dev.consistentcut.operator.RecordingSink;
import dev.consistentcut.operator.Sum;
import dev.consistentcut.source.InMemorySourceLog;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The Java mirrors of the order, restore-point and status invariants ({@code spec/core/CutInvariants.tla}), each shown holding
 * and failing on hand-made channel contents, checkpoints and status steps.
 */
@Timeout(10)
class OrderAndStatusInvariantsTest {

    /** {@code s -> count -> sink}, FORWARD: one route per record everywhere (also {@link LifecycleChecksStepByStepTest}'s job). */
    static final PhysicalGraph CHAIN = PhysicalGraph.of(JobGraph.builder()
            .source("s", InMemorySourceLog.ofKeys(1, 2, 3, 4))
            .operator("count", 1, KeyedCount::new)
            .operator("sink", 1, RecordingSink::new)
            .edge("s", "count", Partitioning.FORWARD)
            .edge("count", "sink", Partitioning.FORWARD)
            .build());
    private static final CutInvariants INV = new CutInvariants(CHAIN);

    /** {@code s -> count (2 instances, HASH) -> sum}: records of s reach sum along two routes, by key. */
    private static final PhysicalGraph REKEYED = PhysicalGraph.of(JobGraph.builder()
            .source("s", InMemorySourceLog.ofKeys(0, 1, 2, 3, 4, 5, 6, 7)) // key groups: 4 and 6 to count#0
            .operator("count", 2, KeyedCount::new)
            .operator("sum", 1, Sum::new)
            .operator("sink", 1, RecordingSink::new)
            .edge("s", "count", Partitioning.HASH)
            .edge("count", "sum", Partitioning.HASH)
            .edge("sum", "sink", Partitioning.FORWARD)
            .build());

    /** A diamond {@code s -> a, s -> b, a -> j, b -> j, j -> sink}: every record reaches j twice. */
    private static final PhysicalGraph DIAMOND = PhysicalGraph.of(JobGraph.builder()
            .source("s", InMemorySourceLog.ofKeys(1, 2))
            .operator("a", 1, KeyedCount::new)
            .operator("b", 1, KeyedCount::new)
            .operator("j", 1, Sum::new)
            .operator("sink", 1, RecordingSink::new)
            .edge("s", "a", Partitioning.FORWARD)
            .edge("s", "b", Partitioning.FORWARD)
            .edge("a", "j", Partitioning.FORWARD)
            .edge("b", "j", Partitioning.FORWARD)
            .edge("j", "sink", Partitioning.FORWARD)
            .build());

    private static Record rec(long offset) {
        return new Record(new RecordId("s#0", offset), offset + 1, 1);
    }

    private static Record keyed(long offset) {
        return new Record(new RecordId("s#0", offset), offset, 1); // key = offset, as ofKeys(0..7)
    }

    @Test
    void fifoChannelInvHoldsInSourceOrderAndFailsOutOfIt() {
        assertEquals(List.of(), INV.fifoChannel("count#0->sink#0", List.of(rec(0), new Barrier(1), rec(1), rec(3))));
        List<Violation> v = INV.fifoChannel("count#0->sink#0", List.of(rec(0), rec(2), rec(1)));
        assertEquals(1, v.size(), v.toString());
        assertEquals(CutInvariants.FIFO_CHANNEL, v.get(0).invariant());
        assertEquals("FifoChannelInv violated: channel count#0->sink#0 holds record s#0@1 behind s#0@2 of the same source:"
                + " out of source order", v.get(0).message());
        assertEquals(1, INV.fifoChannel("count#0->sink#0", List.of(rec(1), rec(1))).size(), "a duplicate is out of order too");
    }

    @Test
    void fifoChannelInvComparesRecordsPerRouteWhereASourceReachesAChannelAlongSeveral() {
        CutInvariants inv = new CutInvariants(REKEYED);
        // records of s reach sum#0 through count#0 or count#1, by key: two routes
        List<Record> viaCount0 = new java.util.ArrayList<>();
        List<Record> viaCount1 = new java.util.ArrayList<>();
        for (long k = 0; k < 8; k++) {
            (REKEYED.paths("s#0", k, "count#0") == 1 ? viaCount0 : viaCount1).add(keyed(k));
        }
        assertTrue(viaCount0.size() >= 2 && viaCount1.size() >= 2, viaCount0 + " / " + viaCount1);
        Record early0 = viaCount0.get(0);
        Record late0 = sameKey(early0, 10);
        Record early1 = viaCount1.get(0);
        Record late1 = sameKey(early1, 11);
        // across the two routes any interleaving is FIFO per route: the later record of one may come first
        assertEquals(List.of(), inv.fifoChannel("sum#0->sink#0", List.of(late1, early0, late0)));
        assertEquals(List.of(), inv.fifoChannel("sum#0->sink#0", List.of(late0, early1)));
        // along one route, one key group strictly in order
        assertEquals(1, inv.fifoChannel("sum#0->sink#0", List.of(late0, early0)).size());
        assertEquals(1, inv.fifoChannel("sum#0->sink#0", List.of(early1, late1, early1)).size());
    }

    /**
     * A rescaled restore merges old channels into one (a scale-down of count: the channel state
     * of count#0..2 -> sink#0 concatenated on count#0 -> sink#0): one source's records are then in
     * order per key group, not across key groups, which is all FIFO channels promise
     * (spec/rescale/RescaleRestore.tla's {@code SameStream}). The invariant holds there and
     * still fails on a channel that reorders one key group.
     */
    @Test
    void fifoChannelInvOrdersOneSourcePerKeyGroupOnAChannelRoutedByKey() {
        CutInvariants inv = new CutInvariants(REKEYED);
        Record a1 = keyed(0);
        Record a2 = sameKey(a1, 5);
        Record b1 = keyed(1);
        Record b2 = sameKey(b1, 3);
        int groupA = dev.consistentcut.graph.KeyGroups.keyGroupOf(a1.key(), 128);
        int groupB = dev.consistentcut.graph.KeyGroups.keyGroupOf(b1.key(), 128);
        assertTrue(groupA != groupB, groupA + " == " + groupB);
        // into count (HASH): key group a's old channel, then b's; b1 is older than a2
        assertEquals(List.of(), inv.fifoChannel("s#0->count#0", List.of(a1, a2, b1, b2)));
        assertEquals(List.of(), inv.fifoChannel("s#0->count#0", List.of(b1, a1, b2, a2)));
        // one key group reordered
        List<Violation> v = inv.fifoChannel("s#0->count#0", List.of(b1, a2, b2, a1));
        assertEquals(1, v.size(), v.toString());
        assertEquals(CutInvariants.FIFO_CHANNEL, v.get(0).invariant());
        assertEquals("FifoChannelInv violated: channel s#0->count#0 holds record s#0@0 behind s#0@5 of the same source"
                + " and key group: out of source order", v.get(0).message());
    }

    /** A record of {@code r}'s source and key at offset {@code offset}. */
    private static Record sameKey(Record r, long offset) {
        return new Record(new RecordId(r.id().source(), offset), r.key(), 1);
    }

    @Test
    void fifoChannelInvMakesNoClaimOnCopiesOfARecordThatHasSeveralRoutes() {
        CutInvariants inv = new CutInvariants(DIAMOND);
        Record r0 = rec(0);
        Record r1 = rec(1);
        // j received r0 via a, r1 via a, then r0 via b: its output holds 0, 1, 0
        assertEquals(List.of(), inv.fifoChannel("j#0->sink#0", List.of(r0, r1, r0)));
        assertEquals(1, inv.fifoChannel("a#0->j#0", List.of(r1, r0)).size(), "one route into j: still FIFO");
    }

    @Test
    void fifoChannelStateInvFailsOnPersistedRecordsOutOfOrder() {
        CompletedCheckpoint inOrder = checkpoint(List.of(rec(1), rec(2)));
        CompletedCheckpoint swapped = checkpoint(List.of(rec(2), rec(1)));
        assertEquals(List.of(), INV.fifoChannelState(inOrder));
        List<Violation> v = INV.fifoChannelState(swapped);
        assertEquals(1, v.size(), v.toString());
        assertEquals(CutInvariants.FIFO_CHANNEL_STATE, v.get(0).invariant());
        assertEquals(7, v.get(0).checkpointId());
        assertTrue(INV.completedCheckpoint(swapped, true, true).stream()
                .anyMatch(x -> x.invariant().equals(CutInvariants.FIFO_CHANNEL_STATE)), "part of every completed checkpoint's checks");
    }

    private static CompletedCheckpoint checkpoint(List<Record> countToSink) {
        return new CompletedCheckpoint(7, Map.of("s#0", 3L),
                Map.of("count#0", new TaskSnapshot(new byte[0], Map.of(rec(0).id(), 1, rec(1).id(), 1, rec(2).id(), 1)),
                        "sink#0", new TaskSnapshot(new byte[0], Map.of(rec(0).id(), 1))),
                Map.of("s#0->count#0", List.of(), "count#0->sink#0", countToSink),
                new CheckpointStats(0, 0, Map.of(), Map.of(), 0, 0, 0));
    }

    @Test
    void barrierOvertakesInvFailsOnABarrierBehindARecord() {
        assertEquals(List.of(), CutInvariants.barrierOvertakes("e", List.of(new Barrier(1), new Barrier(2), rec(0), rec(1))));
        List<Violation> v = CutInvariants.barrierOvertakes("e", List.of(new Barrier(1), rec(0), new Barrier(2)));
        assertEquals(1, v.size());
        assertEquals(CutInvariants.BARRIER_OVERTAKES, v.get(0).invariant());
        assertEquals("BarrierOvertakesInv violated: channel e holds barrier 2 behind record s#0@0: an unaligned barrier must overtake",
                v.get(0).message());
    }

    @Test
    void endOfPartitionOnceInvFailsOnASecondEndOfPartition() {
        assertEquals(List.of(), CutInvariants.endOfPartitionOnce("e", List.of(rec(0), new Barrier(1), EndOfPartition.INSTANCE)));
        List<Violation> v = CutInvariants.endOfPartitionOnce("e", List.of(rec(0), EndOfPartition.INSTANCE, EndOfPartition.INSTANCE));
        assertEquals(1, v.size());
        assertEquals(CutInvariants.END_OF_PARTITION_ONCE, v.get(0).invariant());
        assertEquals("EndOfPartitionOnceInv violated: channel e holds 2 ends of partition: its sender ended it more than once",
                v.get(0).message());
    }

    @Test
    void cancelBarrierOnceInvFailsOnTwoCancellationsOfOneCheckpointOnly() {
        assertEquals(List.of(), CutInvariants.cancelBarrierOnce("e",
                List.of(new CancelBarrier(1), rec(0), new CancelBarrier(2), new Barrier(1))));
        List<Violation> v = CutInvariants.cancelBarrierOnce("e",
                List.of(new CancelBarrier(2), new CancelBarrier(1), rec(0), new CancelBarrier(2)));
        assertEquals(1, v.size());
        assertEquals(CutInvariants.CANCEL_BARRIER_ONCE, v.get(0).invariant());
        assertEquals(2, v.get(0).checkpointId());
        assertEquals("CancelBarrierOnceInv violated: channel e holds 2 cancellation barriers of checkpoint 2: "
                + "its sender abandoned it more than once", v.get(0).message());
    }

    @Test
    void restorePointInvIsTheNewestCompletedCheckpoint() {
        assertEquals(List.of(), CutInvariants.restorePoint(0, List.of()));
        assertEquals(List.of(), CutInvariants.restorePoint(3, List.of(1L, 3L, 2L)));
        List<Violation> v = CutInvariants.restorePoint(2, List.of(1L, 3L, 2L));
        assertEquals(List.of(CutInvariants.RESTORE_POINT), v.stream().map(Violation::invariant).toList());
        assertEquals("RestorePointInv violated: the restore point is checkpoint 2, but the newest completed checkpoint"
                + " is checkpoint 3", v.get(0).message());
        assertEquals(1, CutInvariants.restorePoint(0, List.of(1L)).size(), "the initial state while one completed");
    }

    @Test
    void restorePointMonotonePropNeverMovesBackwards() {
        assertEquals(List.of(), CutInvariants.restorePointMonotone(0, 1));
        assertEquals(List.of(), CutInvariants.restorePointMonotone(2, 2));
        List<Violation> v = CutInvariants.restorePointMonotone(2, 1);
        assertEquals(List.of(CutInvariants.RESTORE_POINT_MONOTONE), v.stream().map(Violation::invariant).toList());
        assertEquals(1, CutInvariants.restorePointMonotone(1, 0).size(), "back to the initial state");
    }

    @Test
    void checkpointStatusPropAllowsOnlyTheForwardSteps() {
        CheckpointStatus n = CheckpointStatus.NONE;
        CheckpointStatus p = CheckpointStatus.PENDING;
        CheckpointStatus c = CheckpointStatus.COMPLETED;
        CheckpointStatus a = CheckpointStatus.ABORTED;
        for (CheckpointStatus[] ok : new CheckpointStatus[][] {{n, n}, {n, p}, {p, p}, {p, c}, {p, a}, {c, c}, {a, a}}) {
            assertEquals(List.of(), CutInvariants.checkpointStatus(4, ok[0], ok[1]), ok[0] + " -> " + ok[1]);
        }
        for (CheckpointStatus[] bad : new CheckpointStatus[][] {{a, c}, {c, a}, {n, c}, {n, a}, {p, n}, {c, p}, {a, p}}) {
            List<Violation> v = CutInvariants.checkpointStatus(4, bad[0], bad[1]);
            assertEquals(List.of(CutInvariants.CHECKPOINT_STATUS), v.stream().map(Violation::invariant).toList(),
                    bad[0] + " -> " + bad[1]);
        }
        assertEquals("CheckpointStatusProp violated: checkpoint 4 went from ABORTED to COMPLETED; a status only moves"
                + " NONE -> PENDING -> COMPLETED or ABORTED", CutInvariants.checkpointStatus(4, a, c).get(0).message());
    }

    @Test
    void failureAbortsPendingInvFailsOnACheckpointPendingAcrossAFailure() {
        Map<Long, CheckpointStatus> s = Map.of(1L, CheckpointStatus.ABORTED, 2L, CheckpointStatus.COMPLETED,
                3L, CheckpointStatus.PENDING);
        assertEquals(List.of(), CutInvariants.failureAbortsPending(s, 2));
        List<Violation> v = CutInvariants.failureAbortsPending(s, 3);
        assertEquals(List.of(CutInvariants.FAILURE_ABORTS_PENDING), v.stream().map(Violation::invariant).toList());
        assertEquals(3, v.get(0).checkpointId());
    }
}
