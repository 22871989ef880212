package dev.consistentcut.barrier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.message.Barrier;
import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import java.util.List;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

class BarrierHandlerStateTest {

    private static final Record R = new Record(new RecordId("s#0", 4), 1, 1);

    @Nested
    class Aligned {
        final RecordingContext ctx = new RecordingContext(3);
        final BarrierHandlerState idle = BarrierHandlers.aligned().initialState();

        @Test
        void waitingForFirstBarrierPassesRecordsAndBlocksNothing() {
            assertSame(idle, idle.recordReceived(0, R, ctx));
            assertFalse(idle.isBlocked(0));
            assertEquals(0, idle.checkpointId());
            assertEquals(List.of(), ctx.calls);
        }

        @Test
        void firstBarrierBlocksItsInputOnlyAndSnapshotsNothingYet() {
            BarrierHandlerState s = idle.barrierReceived(1, new Barrier(5), ctx);
            assertInstanceOf(AlignedCollectingBarriers.class, s);
            assertEquals(5, s.checkpointId());
            assertTrue(s.isBlocked(1));
            assertFalse(s.isBlocked(0));
            assertFalse(s.isBlocked(2));
            assertEquals(List.of(), ctx.calls);
        }

        @Test
        void collectingPassesRecordsOfUnblockedInputsWithoutPersisting() {
            BarrierHandlerState s = idle.barrierReceived(1, new Barrier(5), ctx);
            assertSame(s, s.recordReceived(0, R, ctx));
            assertEquals(List.of(), ctx.calls, "aligned mode persists nothing");
        }

        @Test
        void lastBarrierSnapshotsForwardsInBandAcknowledgesAndUnblocks() {
            BarrierHandlerState s = idle.barrierReceived(1, new Barrier(5), ctx)
                    .barrierReceived(0, new Barrier(5), ctx);
            assertTrue(s.isBlocked(0) && s.isBlocked(1));
            assertEquals(List.of(), ctx.calls);
            s = s.barrierReceived(2, new Barrier(5), ctx);
            assertEquals(List.of("snapshot 5", "forwardBarrier 5", "acknowledge 5"), ctx.calls);
            assertInstanceOf(AlignedWaitingForFirstBarrier.class, s);
            assertEquals(5, s.latestCheckpointId(), "later barriers of 5 are obsolete");
            assertFalse(s.isBlocked(0) || s.isBlocked(1) || s.isBlocked(2));
        }

        @Test
        void singleInputCompletesOnItsOnlyBarrier() {
            RecordingContext one = new RecordingContext(1);
            assertInstanceOf(AlignedWaitingForFirstBarrier.class, idle.barrierReceived(0, new Barrier(2), one));
            assertEquals(List.of("snapshot 2", "forwardBarrier 2", "acknowledge 2"), one.calls);
        }

        @Test
        void barrierOfANewerCheckpointSubsumesTheAlignmentAndDeclinesIt() {
            BarrierHandlerState s = idle.barrierReceived(0, new Barrier(5), ctx)
                    .barrierReceived(2, new Barrier(6), ctx);
            assertEquals(List.of("abandon 5", "decline 5"), ctx.calls);
            assertEquals(6, s.checkpointId());
            assertTrue(s.isBlocked(2));
            assertFalse(s.isBlocked(0), "the older checkpoint's arrived inputs are not carried over");
        }

        @Test
        void barrierOfAnOlderOrFinishedCheckpointIsDropped() {
            BarrierHandlerState s = idle.barrierReceived(0, new Barrier(5), ctx);
            assertSame(s, s.barrierReceived(1, new Barrier(4), ctx));
            RecordingContext one = new RecordingContext(1);
            BarrierHandlerState done = idle.barrierReceived(0, new Barrier(7), one);
            assertSame(done, done.barrierReceived(0, new Barrier(7), one), "7 is finished here");
        }

        @Test
        void abortOfTheAlignedCheckpointUnblocksEveryInputAndForwardsTheCancellation() {
            BarrierHandlerState s = idle.barrierReceived(0, new Barrier(5), ctx)
                    .barrierReceived(1, new Barrier(5), ctx)
                    .checkpointAborted(5, ctx);
            assertEquals(List.of("abandon 5"), ctx.calls);
            assertFalse(s.isBlocked(0) || s.isBlocked(1));
            assertSame(s, s.barrierReceived(2, new Barrier(5), ctx), "its late barrier is dropped");
        }

        @Test
        void notificationOfANewerAbortIsRememberedAndKeepsTheOlderAlignment() {
            BarrierHandlerState s = idle.barrierReceived(0, new Barrier(5), ctx).checkpointAborted(6, ctx);
            assertEquals(5, s.checkpointId());
            assertTrue(s.isBlocked(0));
            assertTrue(ctx.isAborted(6));
            s = s.barrierReceived(1, new Barrier(5), ctx).barrierReceived(2, new Barrier(5), ctx);
            assertEquals(List.of("snapshot 5", "forwardBarrier 5", "acknowledge 5"), ctx.calls, "5 still completes");
            s = s.barrierReceived(0, new Barrier(6), ctx);
            assertEquals("abandon 6", ctx.calls.get(ctx.calls.size() - 1), "6 is cancelled on its first barrier");
            assertFalse(s.isBlocked(0));
        }

        @Test
        void endedInputsCountAsArrived() {
            BarrierHandlerState s = idle.barrierReceived(0, new Barrier(5), ctx);
            ctx.ended.set(2);
            s = s.endOfPartitionReceived(2, ctx);
            assertEquals(List.of(), ctx.calls, "input 1 is still to come");
            s = s.barrierReceived(1, new Barrier(5), ctx);
            assertEquals(List.of("snapshot 5", "forwardBarrier 5", "acknowledge 5"), ctx.calls);
        }

        @Test
        void secondBarrierOnOneInputIsABug() {
            BarrierHandlerState s = idle.barrierReceived(0, new Barrier(5), ctx);
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> s.barrierReceived(0, new Barrier(5), ctx));
            assertEquals("task op#0 input 0: a second barrier of checkpoint 5 on the same input", e.getMessage());
        }

        @Test
        void recordFromABlockedInputIsABug() {
            BarrierHandlerState s = idle.barrierReceived(0, new Barrier(5), ctx);
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> s.recordReceived(0, R, ctx));
            assertEquals("task op#0 input 0: took record s#0@4 from an input blocked for checkpoint 5", e.getMessage());
        }
    }

    @Nested
    class Unaligned {
        final RecordingContext ctx = new RecordingContext(3);
        final BarrierHandlerState idle = BarrierHandlers.unaligned().initialState();

        @Test
        void waitingForFirstBarrierPassesRecords() {
            assertSame(idle, idle.recordReceived(0, R, ctx));
            assertEquals(List.of(), ctx.calls);
            assertEquals(0, idle.checkpointId());
        }

        @Test
        void firstBarrierSnapshotsAndForwardsOvertakingAtOnceBlockingNothing() {
            BarrierHandlerState s = idle.barrierReceived(1, new Barrier(3), ctx);
            assertInstanceOf(UnalignedCollectingBarriers.class, s);
            assertEquals(List.of("snapshot 3", "forwardBarrierOvertaking 3"), ctx.calls);
            for (int i = 0; i < 3; i++) {
                assertFalse(s.isBlocked(i));
            }
        }

        @Test
        void recordsBeforeTheirInputsBarrierArePersistedOthersNot() {
            BarrierHandlerState s = idle.barrierReceived(1, new Barrier(3), ctx);
            ctx.calls.clear();
            s = s.recordReceived(0, R, ctx);
            s = s.recordReceived(1, R, ctx);
            s = s.recordReceived(2, R, ctx);
            assertEquals(List.of("persist 0 s#0@4", "persist 2 s#0@4"), ctx.calls);
            s = s.barrierReceived(0, new Barrier(3), ctx);
            ctx.calls.clear();
            s.recordReceived(0, R, ctx);
            assertEquals(List.of(), ctx.calls, "input 0's barrier has arrived");
        }

        @Test
        void lastBarrierAcknowledgesAndReturnsToWaiting() {
            BarrierHandlerState s = idle.barrierReceived(1, new Barrier(3), ctx)
                    .barrierReceived(0, new Barrier(3), ctx);
            assertEquals(List.of("snapshot 3", "forwardBarrierOvertaking 3"), ctx.calls);
            s = s.barrierReceived(2, new Barrier(3), ctx);
            assertEquals(List.of("snapshot 3", "forwardBarrierOvertaking 3", "acknowledge 3"), ctx.calls);
            assertInstanceOf(UnalignedWaitingForFirstBarrier.class, s);
        }

        @Test
        void singleInputSnapshotsForwardsAndAcknowledgesAtOnce() {
            RecordingContext one = new RecordingContext(1);
            assertInstanceOf(UnalignedWaitingForFirstBarrier.class, idle.barrierReceived(0, new Barrier(9), one));
            assertEquals(List.of("snapshot 9", "forwardBarrierOvertaking 9", "acknowledge 9"), one.calls);
        }

        @Test
        void barrierOfANewerCheckpointSubsumesTheOlderOne() {
            BarrierHandlerState s = idle.barrierReceived(0, new Barrier(3), ctx);
            ctx.calls.clear();
            s = s.barrierReceived(1, new Barrier(4), ctx);
            assertEquals(List.of("abandon 3", "decline 3", "snapshot 4", "forwardBarrierOvertaking 4"), ctx.calls);
            ctx.calls.clear();
            s.recordReceived(0, R, ctx);
            assertEquals(List.of("persist 0 s#0@4"), ctx.calls, "input 0 has not delivered barrier 4");
        }

        @Test
        void cancellationStopsPersisting() {
            BarrierHandlerState s = idle.barrierReceived(0, new Barrier(3), ctx).cancelBarrierReceived(1, 3, ctx);
            ctx.calls.clear();
            s.recordReceived(2, R, ctx);
            assertEquals(List.of(), ctx.calls);
            assertSame(s, s.barrierReceived(2, new Barrier(3), ctx), "late barrier of the cancelled checkpoint");
        }

        @Test
        void secondBarrierOnOneInputIsABug() {
            BarrierHandlerState s = idle.barrierReceived(0, new Barrier(3), ctx);
            assertThrows(IllegalStateException.class, () -> s.barrierReceived(0, new Barrier(3), ctx));
        }
    }

    @Test
    void modesByNameAndTheirOvertakingFlag() {
        assertSame(BarrierHandlers.aligned(), BarrierHandlers.byName("aligned"));
        assertSame(BarrierHandlers.unaligned(), BarrierHandlers.byName("unaligned"));
        assertFalse(BarrierHandlers.aligned().overtaking());
        assertTrue(BarrierHandlers.unaligned().overtaking());
        assertSame(BarrierHandlers.atLeastOnce(), BarrierHandlers.byName("at-least-once"));
        assertFalse(BarrierHandlers.atLeastOnce().overtaking());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BarrierHandlers.byName("fast"));
        assertEquals("unknown mode 'fast': expected aligned, unaligned, at-least-once or alternating", e.getMessage());
    }
}
