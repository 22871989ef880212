package dev.consistentcut.stress.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.consistentcut.stress.broken.BrokenAlignedModes;
import dev.consistentcut.stress.harness.ThreeInputScenario;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Twin of {@link Aligned_02_ThreeInputRace} with {@link BrokenAlignedModes#alignedAssumingTwoInputs()}:
 * must be caught (a forbidden outcome), run by {@code run-jcstress.sh --expect-broken}.
 */
@JCStressTest
@Description("Broken twin: an aligned handler that completes the alignment after two barriers, whatever its input count.")
@Outcome(id = "1, 1, 2, 0", expect = ACCEPTABLE, desc = "snapshot = 1 record of s1, 1 of s2, 2 of s3 (each input's pre-barrier prefix); no channel state; invariants hold")
@Outcome(expect = FORBIDDEN, desc = "snapshot differs from the pre-barrier prefixes, channel state persisted, an invariant violated (4th column: count; -1 not completed, -2 engine threw)")
@State
public class BrokenAligned_02_ThreeInputRace {

    private final ThreeInputScenario scenario = new ThreeInputScenario(BrokenAlignedModes.alignedAssumingTwoInputs());

    @Actor
    public void producer() {
        scenario.produce();
    }

    @Actor
    public void taskLoop() {
        scenario.consume();
    }

    @Arbiter
    public void judge(IIII_Result r) {
        scenario.judge(r);
    }
}
