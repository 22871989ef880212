package dev.consistentcut.barrier;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.consistentcut.message.Barrier;
import org.junit.jupiter.api.Test;

/**
 * Each handler state names itself, its checkpoint and its inputs in {@code toString} (and its
 * checkpoint in {@code checkpointId}): that text is
 * what a stuck task's diagnostics and the engine's error messages show, so it must say which state
 * and which inputs (mutation testing found it unchecked).
 */
class BarrierStateDescriptionTest {

    @Test
    void alignedStatesDescribeThemselves() {
        RecordingContext ctx = new RecordingContext(3);
        BarrierHandlerState idle = BarrierHandlers.aligned().initialState();
        assertEquals("AlignedWaitingForFirstBarrier[latest 0]", idle.toString());
        BarrierHandlerState s = idle.barrierReceived(1, new Barrier(5), ctx);
        assertEquals("AlignedCollectingBarriers[checkpoint 5, blocked {1}]", s.toString());
        assertEquals(5, s.checkpointId());
    }

    @Test
    void unalignedStatesDescribeThemselves() {
        RecordingContext ctx = new RecordingContext(3);
        BarrierHandlerState idle = BarrierHandlers.unaligned().initialState();
        assertEquals("UnalignedWaitingForFirstBarrier[latest 0]", idle.toString());
        BarrierHandlerState s = idle.barrierReceived(2, new Barrier(7), ctx);
        assertEquals("UnalignedCollectingBarriers[checkpoint 7, arrived {2}]", s.toString());
        assertEquals(7, s.checkpointId());
    }

    @Test
    void atLeastOnceStatesDescribeThemselves() {
        RecordingContext ctx = new RecordingContext(2);
        BarrierHandlerState idle = BarrierHandlers.atLeastOnce().initialState();
        assertEquals("AtLeastOnceIdle[latest 0]", idle.toString());
        BarrierHandlerState s = idle.barrierReceived(1, new Barrier(4), ctx).barrierReceived(0, new Barrier(6), ctx);
        assertEquals("AtLeastOnceTracking[latest 0, pending {4={1}, 6={0}}]", s.toString());
        assertEquals(4, s.checkpointId());
        assertEquals("AtLeastOnceIdle[latest 6]", s.barrierReceived(1, new Barrier(6), ctx).toString());
    }
}
