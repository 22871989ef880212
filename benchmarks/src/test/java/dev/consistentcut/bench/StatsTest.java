package dev.consistentcut.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class StatsTest {

    @Test
    void nearestRankPercentilesPickValuesThatOccurred() {
        double[] v = {5, 1, 4, 2, 3};
        assertEquals(3, Stats.median(v));
        assertEquals(5, Stats.percentile(v, 99));
        assertEquals(5, Stats.max(v));
        assertEquals(1, Stats.percentile(v, 1));
        assertEquals(2, Stats.median(new double[] {1, 2, 3, 4}), "lower median for an even count");
    }

    @Test
    void notMeasuredValuesAreIgnoredAndNothingGivesNaN() {
        assertEquals(2, Stats.median(new double[] {Double.NaN, 2, Double.NaN}));
        assertTrue(Double.isNaN(Stats.median(new double[] {})));
        assertTrue(Double.isNaN(Stats.max(new double[] {Double.NaN})));
    }

    @Test
    void aPercentileOutsideItsRangeIsRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Stats.percentile(new double[] {1}, 0));
        assertTrue(e.getMessage().contains("got 0"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Stats.percentile(new double[] {1}, 101));
    }
}
