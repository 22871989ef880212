package dev.consistentcut.barrier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.message.Barrier;
import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The four alternating handler states one event at a time, against a context that writes down
 * what they ask for: every branch of the switch, the lifecycle events in each state, and their
 * descriptions (the engine's diagnostics show them).
 */
@Timeout(10)
class AlternatingStatesTest {

    /** A context with queued barriers a test sets per input; it records every request in order. */
    static final class Ctx implements BarrierHandlerContext {
        final List<String> calls = new ArrayList<>();
        final Map<Integer, Barrier> queued = new HashMap<>();
        final BitSet ended = new BitSet();
        final Set<Long> aborted = new TreeSet<>();
        private final int inputs;

        Ctx(int inputs) {
            this.inputs = inputs;
        }

        @Override public String taskId() { return "op#0"; }
        @Override public int inputCount() { return inputs; }
        @Override public boolean inputEnded(int input) { return ended.get(input); }
        @Override public void snapshot(long c) { calls.add("snapshot " + c); }
        @Override public void forwardBarrier(long c) { calls.add("forward " + c); }
        @Override public void forwardBarrierOvertaking(long c) { calls.add("overtake " + c); }
        @Override public void forward(Barrier b) { calls.add("forward " + b.checkpointId() + (b.aligned() ? "" : "u") + (b.savepoint() ? "s" : "")); }
        @Override public void persistInFlight(int input, Record r) { calls.add("persist " + input); }
        @Override public void acknowledge(long c) { calls.add("ack " + c); }
        @Override public void abandon(long c) { calls.add("abandon " + c); }
        @Override public void markAborted(long c) { aborted.add(c); }
        @Override public boolean isAborted(long c) { return aborted.contains(c); }
        @Override public void decline(long c) { calls.add("decline " + c); }
        @Override public Barrier queuedBarrier(int input) { return queued.get(input); }
        @Override public void switched(long c, boolean timeout) { calls.add("switched " + c + (timeout ? " timeout" : "")); }
        @Override public void discard(long c) { calls.add("discard " + c); }

        @Override
        public boolean prioritizeBarrier(int input, long c, boolean persist) {
            Barrier b = queued.get(input);
            if (b == null || b.checkpointId() != c) {
                return false;
            }
            queued.remove(input);
            calls.add("prioritize " + input + (persist ? "" : " unpersisted"));
            return true;
        }
    }

    private static final Record R = new Record(new RecordId("s#0", 0), 1, 1);

    private static BarrierHandlerState initial() {
        return BarrierHandlers.alternating(10).initialState();
    }

    private static Barrier aligned(long c) {
        return new Barrier(c);
    }

    private static Barrier unaligned(long c) {
        return new Barrier(c, false, false);
    }

    private static Barrier savepoint(long c) {
        return new Barrier(c, true, true);
    }

    @Test
    void theModeIsAlternatingWithItsTimeout() {
        BarrierMode m = BarrierHandlers.alternating(10);
        assertEquals("alternating", m.name());
        assertEquals(10, m.alignedTimeoutMillis());
        assertFalse(m.overtaking());
        assertTrue(m.oneInFlight());
        assertEquals(DeliveryGuarantee.EXACTLY_ONCE, m.deliveryGuarantee(), "a switch keeps the cut consistent");
        assertEquals(BarrierHandlers.DEFAULT_ALIGNED_TIMEOUT_MILLIS, BarrierHandlers.byName("alternating").alignedTimeoutMillis());
        assertEquals(-1, BarrierHandlers.aligned().alignedTimeoutMillis());
        assertFalse(BarrierHandlers.aligned().oneInFlight());
        assertTrue(BarrierHandlers.unaligned().oneInFlight());
        assertThrows(IllegalArgumentException.class, () -> BarrierHandlers.alternating(-1));
        assertThrows(IllegalArgumentException.class, () -> BarrierHandlers.alternating(BarrierHandlers.MAX_ALIGNED_TIMEOUT_MILLIS + 1));
        assertEquals(0, BarrierHandlers.alternating(0).alignedTimeoutMillis());
        assertEquals(BarrierHandlers.MAX_ALIGNED_TIMEOUT_MILLIS,
                BarrierHandlers.alternating(BarrierHandlers.MAX_ALIGNED_TIMEOUT_MILLIS).alignedTimeoutMillis());
        assertTrue(BarrierHandlers.NAMES.contains("alternating"));
    }

    @Test
    void statesDescribeThemselves() {
        Ctx ctx = new Ctx(2);
        BarrierHandlerState w = initial();
        assertEquals("AlternatingWaitingForFirstBarrier[latest 0]", w.toString());
        BarrierHandlerState a = w.barrierReceived(1, savepoint(3), ctx);
        assertEquals("AlternatingCollectingBarriers[checkpoint 3, savepoint, blocked {1}]", a.toString());
        BarrierHandlerState a2 = initial().barrierReceived(0, aligned(4), ctx);
        assertEquals("AlternatingCollectingBarriers[checkpoint 4, blocked {0}]", a2.toString());
        BarrierHandlerState u = a2.timeoutAlignment(4, ctx);
        assertEquals("AlternatingCollectingBarriersUnaligned[checkpoint 4, arrived {0}]", u.toString());
        ctx.queued.put(0, aligned(5));
        BarrierHandlerState p = new AlternatingWaitingForFirstBarrier(4, AlternatingDials.CORRECT).timeoutAlignment(5, ctx);
        assertEquals("AlternatingWaitingForFirstBarrierUnaligned[pending 5, latest 4]", p.toString());
        assertEquals(0, p.checkpointId());
        assertEquals(4, p.latestCheckpointId());
        assertEquals(4, u.checkpointId());
        assertEquals(4, u.latestCheckpointId());
        assertEquals(3, a.latestCheckpointId());
    }

    @Test
    void alignedBarriersAlignAndCompleteInBand() {
        Ctx ctx = new Ctx(2);
        BarrierHandlerState s = initial().barrierReceived(0, aligned(1), ctx);
        assertTrue(s.isBlocked(0));
        assertFalse(s.isBlocked(1));
        assertSame(s, s.recordReceived(1, R, ctx));
        assertThrows(IllegalStateException.class, () -> s.recordReceived(0, R, ctx));
        assertThrows(IllegalStateException.class, () -> s.barrierReceived(0, aligned(1), ctx));
        BarrierHandlerState done = s.barrierReceived(1, aligned(1), ctx);
        assertEquals(List.of("snapshot 1", "forward 1", "ack 1"), ctx.calls);
        assertEquals(0, done.checkpointId());
        assertEquals(1, done.latestCheckpointId());
        assertFalse(done.isBlocked(0));
        assertSame(done, done.barrierReceived(0, aligned(1), ctx), "obsolete");
    }

    @Test
    void aSavepointForwardsASavepointBarrierAndNeverTimesOut() {
        Ctx ctx = new Ctx(2);
        BarrierHandlerState s = initial().barrierReceived(0, savepoint(1), ctx);
        assertFalse(s.canTimeoutAlignment(1, ctx));
        assertThrows(IllegalStateException.class, () -> s.timeoutAlignment(1, ctx));
        s.barrierReceived(1, savepoint(1), ctx);
        assertEquals(List.of("snapshot 1", "forward 1s", "ack 1"), ctx.calls);
    }

    @Test
    void theActiveTimeoutSwitchesWithTheBlockedInputsArrived() {
        Ctx ctx = new Ctx(3);
        BarrierHandlerState s = initial().barrierReceived(0, aligned(2), ctx);
        assertTrue(s.canTimeoutAlignment(2, ctx));
        assertFalse(s.canTimeoutAlignment(3, ctx), "only the checkpoint it aligns");
        BarrierHandlerState u = s.timeoutAlignment(2, ctx);
        assertEquals(List.of("snapshot 2", "forward 2u", "switched 2 timeout"), ctx.calls);
        assertFalse(u.isBlocked(0));
        assertFalse(u.canTimeoutAlignment(2, ctx));
        ctx.calls.clear();
        u = u.recordReceived(0, R, ctx).recordReceived(1, R, ctx);
        assertEquals(List.of("persist 1"), ctx.calls, "arrived input 0 persists nothing, pending input 1 does");
        ctx.calls.clear();
        u = u.barrierReceived(1, aligned(2), ctx);
        assertEquals(List.of(), ctx.calls);
        BarrierHandlerState u2 = u;
        assertThrows(IllegalStateException.class, () -> u2.barrierReceived(1, unaligned(2), ctx));
        BarrierHandlerState done = u.barrierReceived(2, unaligned(2), ctx);
        assertEquals(List.of("ack 2"), ctx.calls);
        assertEquals("AlternatingWaitingForFirstBarrier[latest 2]", done.toString());
    }

    /** What the spec-to-engine replay reads of each state: the spec's arrived[t] and unalignedAt[t]. */
    @Test
    void eachStateSaysWhichInputsArrivedAndWhichCheckpointItHandlesUnaligned() {
        Ctx ctx = new Ctx(3);
        BarrierHandlerState w = initial();
        assertEquals(0, w.unalignedCheckpointId());
        BarrierHandlerState a = w.barrierReceived(0, aligned(2), ctx);
        assertTrue(a.arrived(0) && !a.arrived(1), "aligning: the blocked input arrived");
        assertEquals(0, a.unalignedCheckpointId(), "aligning is not unaligned");
        BarrierHandlerState u = a.timeoutAlignment(2, ctx).barrierReceived(1, aligned(2), ctx);
        assertTrue(u.arrived(0) && u.arrived(1) && !u.arrived(2), "switched: arrived, though nothing is blocked");
        assertFalse(u.isBlocked(0));
        assertEquals(2, u.unalignedCheckpointId());
        ctx.queued.put(0, aligned(3));
        BarrierHandlerState p = u.barrierReceived(2, aligned(2), ctx).timeoutAlignment(3, ctx);
        assertEquals(0, p.checkpointId());
        assertEquals(3, p.unalignedCheckpointId(), "after a passive timeout: awaited unaligned");
        assertFalse(p.arrived(0));
    }

    @Test
    void anUnalignedBarrierSwitchesAnAlignmentWithoutATimeout() {
        Ctx ctx = new Ctx(2);
        BarrierHandlerState s = initial().barrierReceived(0, aligned(1), ctx).barrierReceived(1, unaligned(1), ctx);
        assertEquals(List.of("snapshot 1", "forward 1u", "switched 1", "ack 1"), ctx.calls);
        assertEquals(0, s.checkpointId());
    }

    @Test
    void anUnalignedFirstBarrierStartsUnaligned() {
        Ctx ctx = new Ctx(2);
        BarrierHandlerState s = initial().barrierReceived(1, unaligned(1), ctx);
        assertEquals(List.of("snapshot 1", "forward 1u", "switched 1"), ctx.calls);
        assertEquals(1, s.checkpointId());
        ctx.calls.clear();
        s.recordReceived(0, R, ctx);
        s.recordReceived(1, R, ctx);
        assertEquals(List.of("persist 0"), ctx.calls);
    }

    @Test
    void thePassiveTimeoutPrioritizesEveryQueuedBarrierAndWaits() {
        Ctx ctx = new Ctx(3);
        ctx.queued.put(0, aligned(1));
        ctx.queued.put(2, aligned(1));
        BarrierHandlerState w = initial();
        assertTrue(w.canTimeoutAlignment(1, ctx));
        assertFalse(w.canTimeoutAlignment(2, ctx), "no barrier of 2 is queued");
        BarrierHandlerState p = w.timeoutAlignment(1, ctx);
        assertEquals(List.of("prioritize 0", "prioritize 2", "switched 1 timeout"), ctx.calls);
        assertFalse(p.canTimeoutAlignment(1, ctx));
        assertFalse(p.isBlocked(0));
        ctx.calls.clear();
        assertSame(p, p.recordReceived(1, R, ctx));
        assertEquals(List.of(), ctx.calls, "before the snapshot nothing is persisted");
        BarrierHandlerState u = p.barrierReceived(0, unaligned(1), ctx);
        assertEquals(List.of("snapshot 1", "forward 1u", "switched 1 timeout"), ctx.calls);
        assertEquals(1, u.checkpointId());
    }

    @Test
    void onlyAnInputThatStillOwesTheUnalignedCheckpointsBarrierHasItPrioritized() {
        Ctx ctx = new Ctx(3);
        ctx.ended.set(2);
        BarrierHandlerState u = initial().barrierReceived(0, aligned(2), ctx).timeoutAlignment(2, ctx);
        assertEquals(0, u.prioritizable(0, ctx), "arrived");
        assertEquals(2, u.prioritizable(1, ctx));
        assertEquals(0, u.prioritizable(2, ctx), "ended");
        ctx.calls.clear();
        ctx.queued.put(1, aligned(2));
        assertSame(u, u.prioritizeBarrier(1, ctx));
        assertEquals(List.of("prioritize 1"), ctx.calls);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> u.prioritizeBarrier(0, ctx));
        assertEquals("task op#0: PrioritizeBarrier(0) is not enabled in AlternatingCollectingBarriersUnaligned[checkpoint 2, arrived {0}]",
                e.getMessage());

        ctx.queued.put(0, aligned(3));
        BarrierHandlerState p = u.barrierReceived(1, aligned(2), ctx).timeoutAlignment(3, ctx);
        assertEquals(3, p.prioritizable(1, ctx), "after a passive timeout every input that has not ended");
        assertEquals(0, p.prioritizable(2, ctx));
        e = assertThrows(IllegalStateException.class, () -> p.prioritizeBarrier(2, ctx));
        assertEquals("task op#0: PrioritizeBarrier(2) is not enabled in AlternatingWaitingForFirstBarrierUnaligned[pending 3, latest 2]",
                e.getMessage());
    }

    @Test
    void noPassiveTimeoutForASavepointAnObsoleteAnAbortedOrAnUnalignedQueuedBarrier() {
        Ctx ctx = new Ctx(1);
        ctx.queued.put(0, savepoint(1));
        assertFalse(initial().canTimeoutAlignment(1, ctx));
        assertThrows(IllegalStateException.class, () -> initial().timeoutAlignment(1, ctx));
        ctx.queued.put(0, aligned(1));
        assertFalse(new AlternatingWaitingForFirstBarrier(1, AlternatingDials.CORRECT).canTimeoutAlignment(1, ctx));
        ctx.queued.put(0, unaligned(1));
        assertFalse(initial().canTimeoutAlignment(1, ctx));
        ctx.queued.put(0, aligned(1));
        ctx.aborted.add(1L);
        assertFalse(initial().canTimeoutAlignment(1, ctx));
        ctx.ended.set(0);
        ctx.aborted.clear();
        assertTrue(initial().canTimeoutAlignment(1, ctx));
        initial().timeoutAlignment(1, ctx);
        assertEquals(List.of("switched 1 timeout"), ctx.calls, "an ended input's channel is not touched");
    }

    @Test
    void afterAPassiveTimeoutObsoleteNewerCancelledAndAbortedCheckpoints() {
        Ctx ctx = new Ctx(2);
        ctx.queued.put(0, aligned(2));
        BarrierHandlerState p = new AlternatingWaitingForFirstBarrier(1, AlternatingDials.CORRECT).timeoutAlignment(2, ctx);
        ctx.calls.clear();
        assertSame(p, p.barrierReceived(1, aligned(1), ctx), "obsolete");
        assertSame(p, p.cancelBarrierReceived(1, 1, ctx), "obsolete");
        assertSame(p, p.endOfPartitionReceived(1, ctx));
        assertSame(p, p.checkpointAborted(5, ctx));
        assertEquals(Set.of(5L), ctx.aborted, "a newer abort is remembered");
        assertEquals(List.of(), ctx.calls);
        BarrierHandlerState n = p.barrierReceived(1, aligned(3), ctx);
        assertEquals(List.of("discard 2"), ctx.calls);
        assertEquals("AlternatingCollectingBarriers[checkpoint 3, blocked {1}]", n.toString());
        ctx.calls.clear();
        BarrierHandlerState c = p.cancelBarrierReceived(0, 2, ctx);
        assertEquals(List.of("abandon 2"), ctx.calls);
        assertEquals("AlternatingWaitingForFirstBarrier[latest 2]", c.toString());
        ctx.calls.clear();
        BarrierHandlerState a = p.checkpointAborted(2, ctx);
        assertEquals(List.of("abandon 2"), ctx.calls);
        assertEquals(2, a.latestCheckpointId());
        ctx.calls.clear();
        ctx.aborted.add(2L);
        BarrierHandlerState ab = p.barrierReceived(0, unaligned(2), ctx);
        assertEquals(List.of("abandon 2"), ctx.calls, "a barrier of an aborted checkpoint abandons it");
        assertEquals(2, ab.latestCheckpointId());
    }

    @Test
    void lifecycleWhileAligning() {
        Ctx ctx = new Ctx(2);
        BarrierHandlerState s = new AlternatingWaitingForFirstBarrier(1, AlternatingDials.CORRECT).barrierReceived(0, aligned(3), ctx);
        assertSame(s, s.barrierReceived(1, aligned(2), ctx), "older: obsolete");
        assertSame(s, s.cancelBarrierReceived(1, 2, ctx), "older cancellation: obsolete");
        assertSame(s, s.checkpointAborted(4, ctx));
        assertEquals(Set.of(4L), ctx.aborted);
        BarrierHandlerState sub = s.barrierReceived(1, aligned(5), ctx);
        assertEquals(List.of("abandon 3", "decline 3"), ctx.calls, "a newer barrier subsumes the alignment");
        assertEquals("AlternatingCollectingBarriers[checkpoint 5, blocked {1}]", sub.toString());
        ctx.calls.clear();
        BarrierHandlerState c = s.cancelBarrierReceived(1, 3, ctx);
        assertEquals(List.of("abandon 3"), ctx.calls);
        assertFalse(c.isBlocked(0));
        ctx.calls.clear();
        BarrierHandlerState n = s.cancelBarrierReceived(1, 6, ctx);
        assertEquals(List.of("abandon 3", "decline 3", "abandon 6"), ctx.calls);
        assertEquals(6, n.latestCheckpointId());
        ctx.calls.clear();
        BarrierHandlerState ab = s.checkpointAborted(3, ctx);
        assertEquals(List.of("abandon 3"), ctx.calls);
        assertEquals("AlternatingWaitingForFirstBarrier[latest 3]", ab.toString());
        ctx.calls.clear();
        assertEquals(s.toString(), s.endOfPartitionReceived(1, ctx).toString(), "input 1 not ended: still aligning");
        ctx.ended.set(1);
        BarrierHandlerState done = s.endOfPartitionReceived(1, ctx);
        assertEquals(List.of("snapshot 3", "forward 3", "ack 3"), ctx.calls, "an ended input completes the alignment");
        assertEquals("AlternatingWaitingForFirstBarrier[latest 3]", done.toString());
    }

    @Test
    void lifecycleWhileUnaligned() {
        Ctx ctx = new Ctx(2);
        BarrierHandlerState u = new AlternatingWaitingForFirstBarrier(1, AlternatingDials.CORRECT).barrierReceived(0, unaligned(3), ctx);
        ctx.calls.clear();
        assertSame(u, u.barrierReceived(1, aligned(2), ctx));
        assertSame(u, u.cancelBarrierReceived(1, 2, ctx));
        assertSame(u, u.checkpointAborted(4, ctx));
        assertFalse(u.isBlocked(1));
        BarrierHandlerState sub = u.barrierReceived(1, aligned(5), ctx);
        assertEquals(List.of("abandon 3", "decline 3"), ctx.calls);
        assertEquals(5, sub.checkpointId());
        ctx.calls.clear();
        assertEquals(3, u.cancelBarrierReceived(1, 3, ctx).latestCheckpointId());
        assertEquals(List.of("abandon 3"), ctx.calls);
        ctx.calls.clear();
        assertEquals(6, u.cancelBarrierReceived(1, 6, ctx).latestCheckpointId());
        assertEquals(List.of("abandon 3", "decline 3", "abandon 6"), ctx.calls);
        ctx.calls.clear();
        BarrierHandlerState ab = u.checkpointAborted(3, ctx);
        assertEquals(List.of("abandon 3"), ctx.calls);
        assertEquals("AlternatingWaitingForFirstBarrier[latest 3]", ab.toString());
        ctx.calls.clear();
        assertEquals(u.toString(), u.endOfPartitionReceived(1, ctx).toString());
        ctx.ended.set(1);
        BarrierHandlerState done = u.endOfPartitionReceived(1, ctx);
        assertEquals(List.of("ack 3"), ctx.calls);
        assertEquals("AlternatingWaitingForFirstBarrier[latest 3]", done.toString());
    }

    @Test
    void lifecycleWhileWaiting() {
        Ctx ctx = new Ctx(2);
        BarrierHandlerState w = new AlternatingWaitingForFirstBarrier(2, AlternatingDials.CORRECT);
        assertSame(w, w.recordReceived(0, R, ctx));
        assertSame(w, w.endOfPartitionReceived(0, ctx));
        assertSame(w, w.cancelBarrierReceived(0, 2, ctx));
        assertSame(w, w.checkpointAborted(2, ctx));
        assertEquals(Set.of(), ctx.aborted);
        assertSame(w, w.checkpointAborted(3, ctx));
        assertEquals(Set.of(3L), ctx.aborted);
        BarrierHandlerState a = w.barrierReceived(0, aligned(3), ctx);
        assertEquals(List.of("abandon 3"), ctx.calls, "the first barrier of an aborted checkpoint abandons it");
        assertEquals(3, a.latestCheckpointId());
        ctx.calls.clear();
        assertEquals(7, w.cancelBarrierReceived(0, 7, ctx).latestCheckpointId());
        assertEquals(List.of("abandon 7"), ctx.calls);
        assertFalse(w.isBlocked(0));
        assertEquals(0, w.checkpointId());
        assertFalse(w.canTimeoutAlignment(2, ctx));
    }

    @Test
    void theContextsDefaultsForwardByTheFlagAndPrioritizeNothing() {
        RecordingContext rc = new RecordingContext(1);
        rc.forward(aligned(4));
        rc.forward(unaligned(5));
        assertEquals(List.of("forwardBarrier 4", "forwardBarrierOvertaking 5"), rc.calls);
        assertFalse(rc.prioritizeBarrier(0, 4, true));
        assertEquals(null, rc.queuedBarrier(0));
        rc.switched(4, true);
        rc.discard(4);
        assertEquals(2, rc.calls.size());
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> BarrierHandlers.aligned().initialState().timeoutAlignment(4, rc));
        assertEquals("task op#0: TimeoutAlignment(4) is not enabled in AlignedWaitingForFirstBarrier[latest 0]", e.getMessage());
        assertFalse(BarrierHandlers.aligned().initialState().canTimeoutAlignment(4, rc));
    }

    @Test
    void theDialsOfTheBrokenTwinsEachChangeOneThing() {
        AlternatingDials ok = AlternatingDials.CORRECT;
        assertTrue(ok.persists(false));
        assertFalse(ok.persists(true));
        assertTrue(ok.maySwitch(false));
        assertFalse(ok.maySwitch(true));
        assertTrue(ok.unaligned(unaligned(1)));
        assertFalse(ok.unaligned(aligned(1)));
        assertTrue(new AlternatingDials(true, true, false, true).persists(true));
        assertFalse(new AlternatingDials(false, false, false, true).persists(false));
        assertTrue(new AlternatingDials(false, true, true, true).maySwitch(true));
        assertFalse(new AlternatingDials(false, true, false, false).unaligned(unaligned(1)));
    }
}
