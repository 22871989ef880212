package dev.consistentcut.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.checkpoint.CheckpointStats;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.checkpoint.TaskSnapshot;
import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.Partitioning;
import dev.consistentcut.graph.PhysicalGraph;
import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import dev.consistentcut.operator.KeyedCount;
import dev.consistentcut.operator.MapOperator;
import dev.consistentcut.operator.RecordingSink;
import dev.consistentcut.source.InMemorySourceLog;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The invariants on hand-made checkpoints of a chain {@code s -> count -> sink}, offsets 0..3. */
class CutInvariantsTest {

    private static final PhysicalGraph CHAIN = PhysicalGraph.of(JobGraph.builder()
            .source("s", InMemorySourceLog.ofKeys(1, 2, 3, 4))
            .operator("count", 1, KeyedCount::new)
            .operator("sink", 1, RecordingSink::new)
            .edge("s", "count", Partitioning.FORWARD)
            .edge("count", "sink", Partitioning.FORWARD)
            .build());
    private static final CutInvariants INV = new CutInvariants(CHAIN);

    private static RecordId id(long offset) {
        return new RecordId("s#0", offset);
    }

    private static Record rec(long offset) {
        return new Record(id(offset), offset + 1, 1);
    }

    private static TaskSnapshot processed(long... offsets) {
        Map<RecordId, Integer> ledger = new HashMap<>();
        for (long o : offsets) {
            ledger.merge(id(o), 1, Integer::sum);
        }
        return new TaskSnapshot(new byte[0], ledger);
    }

    private static CompletedCheckpoint checkpoint(long sourceOffset, TaskSnapshot count, TaskSnapshot sink,
                                                  List<Record> countToSink) {
        return new CompletedCheckpoint(7, Map.of("s#0", sourceOffset),
                Map.of("count#0", count, "sink#0", sink),
                Map.of("s#0->count#0", List.of(), "count#0->sink#0", countToSink),
                new CheckpointStats(0, 0, Map.of(), Map.of(), 0, 0, 0));
    }

    /** Source at 2; count has processed 0 and 1; record 1 is on its way to the sink, persisted. */
    private static final CompletedCheckpoint CORRECT =
            checkpoint(2, processed(0, 1), processed(0), List.of(rec(1)));

    @Test
    void aConsistentCutPasses() {
        assertEquals(List.of(), INV.consistentCut(CORRECT));
        assertEquals(List.of(), INV.alignedNoChannelState(checkpoint(2, processed(0, 1), processed(0, 1), List.of())));
    }

    @Test
    void offsetOneEarlyCountsTwice() {
        List<Violation> v = INV.consistentCut(checkpoint(1, processed(0, 1), processed(0), List.of(rec(1))));
        assertEquals(2, v.size(), v.toString());
        Violation count = v.get(0);
        assertEquals(CutInvariants.NO_DOUBLE_COUNT, count.invariant());
        assertEquals("count#0", count.operator());
        assertEquals(id(1), count.record());
        assertEquals("counted twice", count.direction());
        assertEquals("ConsistentCutInv (NoDoubleCountInv) violated in checkpoint 7: operator count#0, record s#0@1:"
                + " processed 1 + persisted in channels 0 = 1, expected 0 (offset 1 >= recorded offset 1 of s#0): counted twice",
                count.message());
        assertEquals("sink#0", v.get(1).operator(), "the persisted copy is one too many for the sink as well");
        assertEquals(v, INV.noDoubleCount(checkpoint(1, processed(0, 1), processed(0), List.of(rec(1)))));
        assertEquals(List.of(), INV.noSkip(checkpoint(1, processed(0, 1), processed(0), List.of(rec(1)))));
    }

    @Test
    void offsetOneLateSkips() {
        List<Violation> v = INV.consistentCut(checkpoint(3, processed(0, 1), processed(0), List.of(rec(1))));
        assertEquals(2, v.size(), v.toString());
        for (Violation x : v) {
            assertEquals(CutInvariants.NO_SKIP, x.invariant());
            assertEquals(id(2), x.record());
            assertEquals("skipped", x.direction());
            assertTrue(x.message().endsWith("expected 1 (offset 2 < recorded offset 3 of s#0): skipped"), x.message());
        }
        assertEquals(List.of("count#0", "sink#0"), v.stream().map(Violation::operator).toList());
    }

    @Test
    void aDroppedChannelStateRecordIsSkippedDownstream() {
        List<Violation> v = INV.consistentCut(checkpoint(2, processed(0, 1), processed(0), List.of()));
        assertEquals(1, v.size(), v.toString());
        assertEquals("sink#0", v.get(0).operator());
        assertEquals(id(1), v.get(0).record());
        assertEquals(0, v.get(0).actual());
        assertEquals(1, v.get(0).expected());
        assertEquals("skipped", v.get(0).direction());
    }

    @Test
    void channelStateCountsForEveryOperatorItStillHasToReach() {
        // Record 1 persisted before count: it counts for count (1 route) and for sink (1 route).
        CompletedCheckpoint c = new CompletedCheckpoint(3, Map.of("s#0", 2L),
                Map.of("count#0", processed(0), "sink#0", processed(0)),
                Map.of("s#0->count#0", List.of(rec(1)), "count#0->sink#0", List.of()),
                new CheckpointStats(0, 0, Map.of(), Map.of(), 0, 0, 0));
        assertEquals(List.of(), INV.consistentCut(c));
    }

    @Test
    void channelStateIsWeightedByTheRoutesFromItsReceiver() {
        // s --BROADCAST--> a (2 instances) --HASH--> sink: each record reaches the sink on 2 routes.
        PhysicalGraph diamond = PhysicalGraph.of(JobGraph.builder()
                .source("s", InMemorySourceLog.ofKeys(5))
                .operator("a", 2, () -> new MapOperator(v -> v))
                .operator("sink", 1, RecordingSink::new)
                .edge("s", "a", Partitioning.BROADCAST)
                .edge("a", "sink", Partitioning.HASH)
                .build());
        CutInvariants inv = new CutInvariants(diamond);
        Record r = new Record(id(0), 5, 1);
        Map<RecordId, Integer> once = Map.of(id(0), 1);
        // a#1 and the sink (via a#1) saw it; the copy for a#0 was persisted in s#0->a#0.
        Map<String, List<Record>> channels = new HashMap<>();
        diamond.channels().forEach(ch -> channels.put(ch.id(), List.of()));
        channels.put("s#0->a#0", List.of(r));
        CompletedCheckpoint good = new CompletedCheckpoint(1, Map.of("s#0", 1L),
                Map.of("a#0", new TaskSnapshot(new byte[0], Map.of()), "a#1", new TaskSnapshot(new byte[0], once),
                        "sink#0", new TaskSnapshot(new byte[0], once)),
                channels, new CheckpointStats(0, 0, Map.of(), Map.of(), 0, 0, 0));
        assertEquals(List.of(), inv.consistentCut(good));

        channels.put("s#0->a#0", List.of());
        CompletedCheckpoint lost = new CompletedCheckpoint(1, good.sourceOffsets(), good.taskSnapshots(), channels, good.stats());
        List<Violation> v = inv.consistentCut(lost);
        assertEquals(List.of("a#0", "sink#0"), v.stream().map(Violation::operator).toList());
        assertEquals(1, v.get(1).actual());
        assertEquals(2, v.get(1).expected());
    }

    @Test
    void alignedCheckpointWithChannelStateIsReported() {
        List<Violation> v = INV.alignedNoChannelState(CORRECT);
        assertEquals(1, v.size());
        assertEquals("AlignedNoChannelStateInv violated in checkpoint 7: channel count#0->sink#0 persisted 1 record(s), first s#0@1",
                v.get(0).message());
    }

    @Test
    void missingSnapshotIsReportedNotMisread() {
        CompletedCheckpoint c = new CompletedCheckpoint(2, Map.of("s#0", 0L), Map.of("count#0", processed()),
                Map.of(), new CheckpointStats(0, 0, Map.of(), Map.of(), 0, 0, 0));
        List<Violation> v = INV.consistentCut(c);
        assertEquals(1, v.size());
        assertEquals("ConsistentCutInv cannot hold in checkpoint 2: it has no snapshot of operator sink#0", v.get(0).message());
    }

    @Test
    void exactlyOnceHoldsForCompleteLedgersAndNamesEachDeviation() {
        Map<String, Map<RecordId, Integer>> ledgers = new HashMap<>();
        ledgers.put("count#0", processed(0, 1, 2, 3).processed());
        ledgers.put("sink#0", processed(0, 1, 2, 3).processed());
        assertEquals(List.of(), INV.exactlyOnce(ledgers));

        ledgers.put("sink#0", processed(0, 1, 1, 3).processed());
        List<Violation> v = INV.exactlyOnce(ledgers);
        assertEquals(List.of(
                "ExactlyOnceInv violated: operator sink#0, record s#0@1: processed 2 times, expected 1: counted twice",
                "ExactlyOnceInv violated: operator sink#0, record s#0@2: processed 0 times, expected 1: skipped"),
                v.stream().map(Violation::message).toList());
    }

    @Test
    void channelStateBoundHoldsForWhatTheSenderHadSent() {
        // count had processed 0 and 1 before its snapshot, so it can have sent both to the sink.
        CompletedCheckpoint c = checkpoint(2, processed(0, 1), processed(), List.of(rec(0), rec(1)));
        assertEquals(List.of(), INV.unalignedChannelStateBound(c));
        assertEquals(List.of(), INV.unalignedChannelStateBound(CORRECT));
    }

    @Test
    void channelStateBoundNamesARecordTheSenderHadNotSent() {
        // Record 2 is persisted on count->sink, but count's snapshot never processed it.
        CompletedCheckpoint twice = checkpoint(3, processed(0, 1), processed(0), List.of(rec(1), rec(1)));
        CompletedCheckpoint unsent = checkpoint(3, processed(0, 1), processed(0), List.of(rec(1), rec(2)));
        assertEquals(List.of("UnalignedChannelStateBoundInv violated in checkpoint 7: channel count#0->sink#0 persisted"
                        + " record s#0@1 2 time(s), but its sender count#0 had sent it there 1 time(s) before its snapshot"),
                INV.unalignedChannelStateBound(twice).stream().map(Violation::message).toList());
        assertEquals(List.of("UnalignedChannelStateBoundInv violated in checkpoint 7: channel count#0->sink#0 persisted"
                        + " record s#0@2 1 time(s), but its sender count#0 had sent it there 0 time(s) before its snapshot"),
                INV.unalignedChannelStateBound(unsent).stream().map(Violation::message).toList());
    }

    @Test
    void completedCheckpointChecksWhatTheModeRequires() {
        assertEquals(List.of(), INV.completedCheckpoint(CORRECT, true, true));
        assertEquals(List.of(CutInvariants.ALIGNED_NO_CHANNEL_STATE),
                INV.completedCheckpoint(CORRECT, false, true).stream().map(Violation::invariant).toList());
        CompletedCheckpoint late = checkpoint(3, processed(0, 1), processed(0), List.of(rec(1), rec(2)));
        // count misses record 2 (skipped); the sink sees it once, persisted, but count never sent it.
        assertEquals(List.of(CutInvariants.NO_SKIP, CutInvariants.UNALIGNED_CHANNEL_STATE_BOUND),
                INV.completedCheckpoint(late, true, true).stream().map(Violation::invariant).distinct().toList());
    }

    @Test
    void unalignedNeverBlocksNamesTheBlockedInput() {
        assertEquals(List.of(), CutInvariants.unalignedNeverBlocks("j#0", 2, i -> false));
        assertEquals("UnalignedNeverBlocksInv violated: task j#0 blocks input 1",
                CutInvariants.unalignedNeverBlocks("j#0", 2, i -> i == 1).get(0).message());
    }

    @Test
    void universeIsEveryRecordOfEveryLog() {
        assertEquals(List.of(rec(0), rec(1), rec(2), rec(3)), INV.universe());
    }
}
