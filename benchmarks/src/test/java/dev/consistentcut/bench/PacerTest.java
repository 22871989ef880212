package dev.consistentcut.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** The pacer's arithmetic; its timing is the benchmark's business, not a test's. */
class PacerTest {

    @Test
    void ratesBecomePeriods() {
        assertEquals(5_000_000, Pacer.perSecond(200).periodNanos());
        assertEquals(1_000_000, Pacer.perSecond(1_000).periodNanos());
        assertEquals(0, Pacer.perSecond(0).periodNanos(), "no rate, no pacing");
    }

    @Test
    void theBackpressureLevelsAreTenfoldApart() {
        assertEquals(0, Backpressure.NONE.sinkNanosPerRecord());
        assertEquals(10 * Backpressure.LIGHT.sinkNanosPerRecord(), Backpressure.HEAVY.sinkNanosPerRecord());
    }

    @Test
    void aCancelledWaitReturnsFalseAndAnUnpacedOneTrue() {
        Pacer hourly = new Pacer(3_600_000_000_000L);
        assertEquals(false, hourly.awaitUnless(() -> true), "cancelled before its hour is up");
        assertEquals(false, hourly.awaitUnless(() -> true), "and the slot is still the one waited for");
        assertEquals(true, new Pacer(0).awaitUnless(() -> true), "no pacing: nothing to wait for, nothing to cancel");
    }

    @Test
    void aNegativePeriodIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> new Pacer(-1));
    }
}
