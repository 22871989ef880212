package dev.consistentcut.bench.scale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class RunOutputTest {

    @Test
    void readsTheCountTheDurationsAndTheVerdict() {
        RunOutput o = RunOutput.parse(ScaleFixtures.runOutput(10_000, List.of(22.94, 16.87), "exactly-once holds"));
        assertEquals(2, o.checkpointsCompleted());
        assertEquals(490.11, o.elapsedMs(), 1e-9);
        assertEquals(List.of(22.94, 16.87), o.durationsMs());
        assertEquals("exactly-once holds", o.verdict());
        assertTrue(o.exactlyOnce());
    }

    @Test
    void theRealFirstLineAndCheckpointLinesAreRead() {
        String stdout = """
                mode unaligned, runtime threads, 200000 records per source, 12 checkpoints completed, 0 aborted, 0 failure(s), 4532.85 ms
                """ + String.join("", java.util.Collections.nCopies(12,
                "checkpoint 1288  duration    1317.52 ms  alignment     280.82 ms  persisted      0 records       134 bytes  state   8622382 bytes\n"))
                + "verdict: exactly-once holds";
        RunOutput o = RunOutput.parse(stdout);
        assertEquals(12, o.checkpointsCompleted());
        assertEquals(1317.52, o.durationsMs().get(11), 1e-9);
    }

    @Test
    void aDecimalCommaReadsAsAPoint() {
        String stdout = ScaleFixtures.runOutput(10, List.of(1.5), "exactly-once holds").replace("490.11", "490,11").replace("1.50 ms", "1,50 ms");
        RunOutput o = RunOutput.parse(stdout);
        assertEquals(490.11, o.elapsedMs(), 1e-9);
        assertEquals(1.5, o.durationsMs().get(0), 1e-9);
    }

    @Test
    void anyOtherVerdictIsNotExactlyOnce() {
        assertFalse(RunOutput.parse(ScaleFixtures.runOutput(10, List.of(), "VIOLATED")).exactlyOnce());
        assertFalse(RunOutput.parse(ScaleFixtures.runOutput(10, List.of(), "at-least-once holds")).exactlyOnce());
        assertFalse(RunOutput.parse(ScaleFixtures.runOutput(10, List.of(), "NOT FINISHED")).exactlyOnce());
    }

    @Test
    void outputWithoutItsLinesIsRejected() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> RunOutput.parse("error: no such option\n"))
                .getMessage().contains("checkpoints completed"));
        String noVerdict = ScaleFixtures.runOutput(10, List.of(1.0), "x").replace("verdict: x\n", "");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> RunOutput.parse(noVerdict)).getMessage().contains("verdict"));
        String missingLine = ScaleFixtures.runOutput(10, List.of(1.0, 2.0), "exactly-once holds").replaceFirst("checkpoint    2 .*\\n", "");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> RunOutput.parse(missingLine)).getMessage()
                .contains("2 completed checkpoints but prints 1"));
    }
}
