package dev.consistentcut.picture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The numbers under a picture come from TLC evaluating the spec's own operators in the last state
 * of a real counterexample (BugOffsetEarly.log: TLC's output for that model, kept as a fixture).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TlcWitnessTest {

    private static final Path SPEC = Path.of(System.getProperty("user.dir")).resolve("../spec").normalize();

    private static List<String> witness(String invariant) throws URISyntaxException {
        TlcTrace trace = TlcTrace.read(Path.of(TlcWitnessTest.class.getResource("BugOffsetEarly.log").toURI()));
        TlcTrace.State last = trace.states().get(trace.states().size() - 1);
        Path jar = Path.of(tlc2.TLC.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        return TlcWitness.lines(invariant, last, SPEC, "MCAlignedCheckpoint",
                SPEC.resolve("aligned/MCAlignedCheckpoint_BugOffsetEarly.cfg"), jar,
                Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    @Test
    void tlcComputesTheNumbersThatViolateTheInvariant() throws Exception {
        assertEquals(List.of("checkpoint 1, operator join, record s1.0: CutCount = 1 > CutTarget = 0",
                "checkpoint 1, operator sink, record s1.0: CutCount = 1 > CutTarget = 0"), witness("NoDoubleCountInv"));
    }

    @Test
    void anInvariantThatHoldsThereHasNoWitness() throws Exception {
        // the same state skips nothing: NoSkipInv's witness set is empty (the check can tell them apart)
        assertTrue(witness("NoSkipInv").isEmpty());
        assertTrue(witness("AlignedNeverBlocksClaim").isEmpty(), "no witness known: the picture quotes the claim only");
    }
}
