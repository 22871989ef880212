package dev.consistentcut.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(10)
class OverheadMainTest {

    @Test
    void cellsAndPairCountsAreReadAndTheDefaultsAreTheFullRunsPlusRoomToDecide() {
        OverheadMain.Options o = OverheadMain.parse(new String[] {"--cells", "skew/aligned,even/unaligned"});
        assertEquals(List.of("skew/aligned", "even/unaligned"), o.cells());
        assertEquals(10, o.minPairs());
        assertEquals(40, o.maxPairs());
        assertEquals(Path.of("benchmarks/results/overhead"), o.out());
        assertEquals(OverheadRun.FULL_WINDOW, o.window());
        o = OverheadMain.parse(new String[] {"--cells", "even/aligned", "--ab-pairs", "4", "--ab-max-pairs", "6", "--out", "x",
                "--window", "10"});
        assertEquals(java.time.Duration.ofSeconds(10), o.window());
        assertEquals(4, o.minPairs());
        assertEquals(6, o.maxPairs());
        assertEquals(Path.of("x"), o.out());
        assertNull(OverheadMain.parse(new String[] {"--help"}));
        assertEquals(1, o.forks());
    }

    @Test
    void forksRunTheirPairsWithoutMoreWhileUndecided() {
        OverheadMain.Options o = OverheadMain.parse(new String[] {"--cells", "even/aligned", "--forks", "4", "--ab-pairs", "8"});
        assertEquals(4, o.forks());
        assertEquals(8, o.minPairs());
        assertEquals(8, o.maxPairs());
        assertTrue(refused("--cells", "even/aligned", "--forks", "0").contains("--forks: needs at least 1 JVM"));
        assertTrue(refused("--cells", "even/aligned", "--forks", "2", "--ab-max-pairs", "20")
                .contains("--ab-max-pairs does not go with --forks"));
        assertEquals("skew unaligned", OverheadMain.cellLabel("skew/unaligned"));
    }

    @Test
    void badArgumentsAreRefusedNamingWhatIsWrong() {
        assertTrue(refused("--cells", "skew/alternating").contains("unknown cell 'skew/alternating'"));
        assertTrue(refused().contains("--cells is required"));
        assertTrue(refused("--cells", "even/aligned", "--ab-pairs", "5", "--ab-max-pairs", "4").contains("--ab-pairs <= --ab-max-pairs"));
        assertTrue(refused("--cells", "even/aligned", "--ab-pairs", "x").contains("not a number"));
        assertTrue(refused("--cells").contains("needs a value"));
        assertTrue(refused("--what").contains("unknown argument"));
        assertTrue(refused("--cells", "even/aligned", "--window", "0").contains("--window: needs at least 1 second"));
    }

    private static String refused(String... args) {
        return assertThrows(IllegalArgumentException.class, () -> OverheadMain.parse(args)).getMessage();
    }
}
