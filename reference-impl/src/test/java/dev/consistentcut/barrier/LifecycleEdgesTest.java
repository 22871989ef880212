package dev.consistentcut.barrier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.message.Barrier;
import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The lifecycle edges of every handler state, one event at a time against a recording context:
 * which calls a cancellation or an abort notification makes (and which it must not: a
 * cancellation of the checkpoint being handled abandons it without declining it), which
 * notifications are remembered (only those of checkpoints newer than the state's
 * {@link BarrierHandlerState#latestCheckpointId()}, as {@link BarrierHandlerContext#markAborted}
 * promises), and the at-least-once tracker with two checkpoints pending. PIT found these edges
 * unchecked after the lifecycle merge (docs/mutation-testing.md); the task-level scenarios
 * (task/flink) go through them without looking at the calls.
 */
@Timeout(10)
class LifecycleEdgesTest {

    private static final Record R = new Record(new RecordId("s#0", 4), 1, 1);

    @Nested
    class Aligned {
        final RecordingContext ctx = new RecordingContext(3);
        final BarrierHandlerState idle = BarrierHandlers.aligned().initialState();

        @Test
        void cancellationOfTheAlignedCheckpointAbandonsItOnceAndDoesNotDeclineIt() {
            BarrierHandlerState s = idle.barrierReceived(0, new Barrier(5), ctx).cancelBarrierReceived(1, 5, ctx);
            assertEquals(List.of("abandon 5"), ctx.calls, "a cancellation is not a subsumption: nothing to decline");
            assertInstanceOf(AlignedWaitingForFirstBarrier.class, s);
            assertEquals(5, s.latestCheckpointId());
            assertFalse(s.isBlocked(0), "every input unblocked at once");
        }

        @Test
        void aWaitingTaskRemembersOnlyNotificationsOfCheckpointsItHasNotReached() {
            RecordingContext one = new RecordingContext(1);
            BarrierHandlerState done = idle.barrierReceived(0, new Barrier(5), one);
            one.calls.clear();
            assertSame(done, done.checkpointAborted(5, one), "5 is finished here");
            assertSame(done, done.checkpointAborted(4, one));
            assertEquals(Set.of(), one.aborted, "markAborted is for checkpoints newer than the latest only");
            assertSame(done, done.checkpointAborted(6, one));
            assertEquals(Set.of(6L), one.aborted);
            assertEquals(List.of(), one.calls, "a notification of a checkpoint not handled yet sends nothing");
            BarrierHandlerState s = done.barrierReceived(0, new Barrier(6), one);
            assertEquals(List.of("abandon 6"), one.calls, "6 is cancelled on its first barrier, never snapshot");
            assertEquals(6, s.latestCheckpointId());
        }

        @Test
        void aligningTaskDoesNotRememberAnAbortOfAnOlderCheckpoint() {
            BarrierHandlerState s = idle.barrierReceived(0, new Barrier(5), ctx);
            assertSame(s, s.checkpointAborted(4, ctx));
            assertEquals(Set.of(), ctx.aborted);
            assertEquals(5, s.latestCheckpointId());
        }
    }

    @Nested
    class Unaligned {
        final RecordingContext ctx = new RecordingContext(3);
        final BarrierHandlerState idle = BarrierHandlers.unaligned().initialState();

        @Test
        void cancellationOfTheCurrentCheckpointAbandonsItOnceAndDoesNotDeclineIt() {
            BarrierHandlerState s = idle.barrierReceived(0, new Barrier(3), ctx);
            ctx.calls.clear();
            s = s.cancelBarrierReceived(1, 3, ctx);
            assertEquals(List.of("abandon 3"), ctx.calls);
            assertInstanceOf(UnalignedWaitingForFirstBarrier.class, s);
            assertEquals(3, s.latestCheckpointId());
        }

        @Test
        void cancellationOfAnOlderCheckpointIsObsoleteAndKeepsCollecting() {
            BarrierHandlerState s = idle.barrierReceived(0, new Barrier(3), ctx);
            ctx.calls.clear();
            assertSame(s, s.cancelBarrierReceived(1, 2, ctx));
            assertEquals(List.of(), ctx.calls, "2 is below the checkpoint being collected: nothing forwarded");
            s.recordReceived(1, R, ctx);
            assertEquals(List.of("persist 1 s#0@4"), ctx.calls, "3 is still being collected");
        }

        @Test
        void abortNotificationOfTheCurrentCheckpointStopsPersisting() {
            BarrierHandlerState s = idle.barrierReceived(0, new Barrier(3), ctx);
            ctx.calls.clear();
            s = s.checkpointAborted(3, ctx);
            assertEquals(List.of("abandon 3"), ctx.calls);
            assertInstanceOf(UnalignedWaitingForFirstBarrier.class, s);
            ctx.calls.clear();
            s = s.recordReceived(1, R, ctx);
            assertEquals(List.of(), ctx.calls, "an abandoned checkpoint persists no channel state");
            assertSame(s, s.barrierReceived(1, new Barrier(3), ctx), "its late barrier is dropped");
        }

        @Test
        void abortNotificationOfAnotherCheckpointKeepsCollecting() {
            BarrierHandlerState s = idle.barrierReceived(0, new Barrier(3), ctx);
            ctx.calls.clear();
            assertSame(s, s.checkpointAborted(2, ctx), "2 is older: nothing to do");
            assertEquals(Set.of(), ctx.aborted, "an older checkpoint is not remembered as aborted");
            assertSame(s, s.checkpointAborted(4, ctx));
            assertEquals(Set.of(4L), ctx.aborted);
            assertEquals(3, s.checkpointId());
            assertEquals(3, s.latestCheckpointId());
            s = s.recordReceived(1, R, ctx);
            assertEquals(List.of("persist 1 s#0@4"), ctx.calls, "3 is still being collected");
            s = s.barrierReceived(1, new Barrier(3), ctx).barrierReceived(2, new Barrier(3), ctx);
            assertEquals("acknowledge 3", ctx.calls.get(ctx.calls.size() - 1));
            ctx.calls.clear();
            s = s.barrierReceived(0, new Barrier(4), ctx);
            assertEquals(List.of("abandon 4"), ctx.calls, "4 is known to be aborted: no snapshot of it");
            assertEquals(4, s.latestCheckpointId());
        }

        @Test
        void aWaitingTaskRemembersANotificationAndCancelsOnTheFirstBarrier() {
            assertSame(idle, idle.checkpointAborted(2, ctx));
            assertEquals(Set.of(2L), ctx.aborted);
            BarrierHandlerState s = idle.barrierReceived(1, new Barrier(2), ctx);
            assertEquals(List.of("abandon 2"), ctx.calls);
            assertInstanceOf(UnalignedWaitingForFirstBarrier.class, s);
            assertEquals(2, s.latestCheckpointId());
            ctx.calls.clear();
            s.recordReceived(0, R, ctx);
            assertEquals(List.of(), ctx.calls, "nothing persisted for an abandoned checkpoint");
        }
    }

    @Nested
    class AtLeastOnce {
        final RecordingContext ctx = new RecordingContext(2);
        final BarrierHandlerState idle = BarrierHandlers.atLeastOnce().initialState();

        /** Checkpoints 1 and 3 pending (first barriers on input 0); 2 came later and was obsolete. */
        BarrierHandlerState twoPending() {
            BarrierHandlerState s = idle.barrierReceived(0, new Barrier(1), ctx).barrierReceived(0, new Barrier(3), ctx);
            assertEquals(List.of(), ctx.calls);
            return s;
        }

        @Test
        void lastBarrierSnapshotsForwardsInBandAndAcknowledges() {
            RecordingContext one = new RecordingContext(1);
            BarrierHandlerState s = idle.barrierReceived(0, new Barrier(4), one);
            assertEquals(List.of("snapshot 4", "forwardBarrier 4", "acknowledge 4"), one.calls);
            assertInstanceOf(AtLeastOnceIdle.class, s);
            assertEquals(4, s.latestCheckpointId());
            one.calls.clear();
            assertSame(s, s.barrierReceived(0, new Barrier(4), one), "4 is finished: its barrier is obsolete");
            assertSame(s, s.barrierReceived(0, new Barrier(3), one));
            assertEquals(List.of(), one.calls);
        }

        @Test
        void anIdleTaskRemembersOnlyNotificationsOfCheckpointsItHasNotReached() {
            RecordingContext one = new RecordingContext(1);
            BarrierHandlerState s = idle.barrierReceived(0, new Barrier(4), one);
            assertSame(s, s.checkpointAborted(4, one));
            assertSame(s, s.checkpointAborted(3, one));
            assertEquals(Set.of(), one.aborted);
            assertSame(s, s.checkpointAborted(5, one));
            assertEquals(Set.of(5L), one.aborted);
        }

        @Test
        void twoPendingCheckpointsTheNewestIsTheLatest() {
            BarrierHandlerState s = twoPending();
            assertEquals(1, s.checkpointId(), "the oldest pending one");
            assertEquals(3, s.latestCheckpointId(), "the newest pending one");
            assertFalse(s.isBlocked(0), "at least once never blocks");
        }

        @Test
        void barrierAndCancellationOfACheckpointBetweenThePendingOnesAreObsolete() {
            BarrierHandlerState s = twoPending();
            assertSame(s, s.barrierReceived(1, new Barrier(2), ctx));
            assertSame(s, s.cancelBarrierReceived(1, 2, ctx));
            assertEquals(List.of(), ctx.calls);
            assertSame(s, s.checkpointAborted(2, ctx));
            assertEquals(Set.of(), ctx.aborted, "2 is below the newest pending checkpoint");
            assertSame(s, s.checkpointAborted(4, ctx));
            assertEquals(Set.of(4L), ctx.aborted);
        }

        @Test
        void cancellationOfTheOlderPendingCheckpointKeepsTheNewerOne() {
            BarrierHandlerState s = twoPending().cancelBarrierReceived(1, 1, ctx);
            assertEquals(List.of("abandon 1"), ctx.calls);
            assertInstanceOf(AtLeastOnceTracking.class, s);
            assertEquals(3, s.checkpointId());
            assertEquals(3, s.latestCheckpointId());
            ctx.calls.clear();
            assertSame(s, s.cancelBarrierReceived(0, 1, ctx), "1 is abandoned: a second cancellation is obsolete");
            assertSame(s, s.barrierReceived(1, new Barrier(1), ctx), "and so is its late barrier");
            assertEquals(List.of(), ctx.calls);
            s = s.barrierReceived(1, new Barrier(3), ctx);
            assertEquals(List.of("snapshot 3", "forwardBarrier 3", "acknowledge 3"), ctx.calls);
            assertInstanceOf(AtLeastOnceIdle.class, s);
        }

        @Test
        void cancellationOfANewerCheckpointDeclinesEveryPendingOne() {
            BarrierHandlerState s = twoPending().cancelBarrierReceived(1, 4, ctx);
            assertEquals(List.of("decline 1", "decline 3", "abandon 4"), ctx.calls);
            assertInstanceOf(AtLeastOnceIdle.class, s);
            assertEquals(4, s.latestCheckpointId());
            ctx.calls.clear();
            assertSame(s, s.barrierReceived(1, new Barrier(3), ctx));
            assertEquals(List.of(), ctx.calls);
        }

        @Test
        void theFirstBarrierOfANewerCheckpointKnownToBeAbortedDropsItAndEveryPendingOne() {
            BarrierHandlerState s = twoPending();
            assertSame(s, s.checkpointAborted(5, ctx));
            s = s.barrierReceived(1, new Barrier(5), ctx);
            assertEquals(List.of("decline 1", "decline 3", "abandon 5"), ctx.calls);
            assertInstanceOf(AtLeastOnceIdle.class, s);
            assertEquals(5, s.latestCheckpointId());
        }

        @Test
        void abortNotificationOfAPendingCheckpointDropsItAndTheOlderOnes() {
            BarrierHandlerState s = twoPending().checkpointAborted(3, ctx);
            assertEquals(List.of("decline 1", "abandon 3"), ctx.calls);
            assertInstanceOf(AtLeastOnceIdle.class, s);
            assertEquals(3, s.latestCheckpointId());
            assertEquals(Set.of(), ctx.aborted, "handled at once, not remembered");
        }

        @Test
        void abortNotificationOfTheOlderPendingCheckpointKeepsTheNewerOne() {
            BarrierHandlerState s = twoPending().checkpointAborted(1, ctx);
            assertEquals(List.of("abandon 1"), ctx.calls);
            assertEquals(3, s.checkpointId());
            assertTrue(s.barrierReceived(1, new Barrier(3), ctx) instanceof AtLeastOnceIdle);
            assertEquals("acknowledge 3", ctx.calls.get(ctx.calls.size() - 1));
        }
    }

    /** The returned state of the alternating mode's lifecycle events (PIT: replaced by null, unchecked). */
    @Nested
    class Alternating {
        final AlternatingStatesTest.Ctx ctx = new AlternatingStatesTest.Ctx(3);
        final BarrierHandlerState idle = BarrierHandlers.alternating(10).initialState();

        @Test
        void abortNotificationOfTheAlignedCheckpointUnblocksAndGoesPastIt() {
            BarrierHandlerState s = idle.barrierReceived(0, new Barrier(5), ctx).checkpointAborted(5, ctx);
            assertEquals(List.of("abandon 5"), ctx.calls);
            assertInstanceOf(AlternatingWaitingForFirstBarrier.class, s);
            assertEquals(5, s.latestCheckpointId());
            assertFalse(s.isBlocked(0), "every input unblocked at once");
            assertSame(s, s.barrierReceived(1, new Barrier(5), ctx), "its late barrier is dropped");
        }

        @Test
        void endOfPartitionOfTheLastMissingInputCompletesTheAlignment() {
            BarrierHandlerState s = idle.barrierReceived(0, new Barrier(5), ctx).barrierReceived(1, new Barrier(5), ctx);
            ctx.ended.set(2);
            s = s.endOfPartitionReceived(2, ctx);
            assertEquals(List.of("snapshot 5", "forward 5", "ack 5"), ctx.calls);
            assertInstanceOf(AlternatingWaitingForFirstBarrier.class, s);
            assertFalse(s.isBlocked(0) || s.isBlocked(1), "unblocked after the snapshot");
        }

        @Test
        void abortNotificationOfTheCheckpointHandledUnalignedStopsPersisting() {
            BarrierHandlerState s = idle.barrierReceived(0, new Barrier(5), ctx).timeoutAlignment(5, ctx);
            assertInstanceOf(AlternatingCollectingBarriersUnaligned.class, s);
            ctx.calls.clear();
            s = s.checkpointAborted(5, ctx);
            assertEquals(List.of("abandon 5"), ctx.calls);
            assertInstanceOf(AlternatingWaitingForFirstBarrier.class, s);
            assertEquals(5, s.latestCheckpointId());
            ctx.calls.clear();
            s.recordReceived(1, R, ctx);
            assertEquals(List.of(), ctx.calls, "an abandoned checkpoint persists no channel state");
        }
    }
}
