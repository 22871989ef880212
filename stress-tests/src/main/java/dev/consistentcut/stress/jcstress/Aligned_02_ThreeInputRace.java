package dev.consistentcut.stress.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.stress.harness.ThreeInputScenario;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/** The engine's aligned barrier handler with three inputs: see {@link ThreeInputScenario} for the race and the outcome columns. */
@JCStressTest
@Description("Aligned handler, three inputs: records and barriers of three sources race with the task loop; "
        + "the snapshot is exactly the pre-barrier prefix of each input, nothing persisted.")
@Outcome(id = "1, 1, 2, 0", expect = ACCEPTABLE, desc = "snapshot = 1 record of s1, 1 of s2, 2 of s3 (each input's pre-barrier prefix); no channel state; invariants hold")
@Outcome(expect = FORBIDDEN, desc = "snapshot differs from the pre-barrier prefixes, channel state persisted, an invariant violated (4th column: count; -1 not completed, -2 engine threw)")
@State
public class Aligned_02_ThreeInputRace {

    private final ThreeInputScenario scenario = new ThreeInputScenario(BarrierHandlers.aligned());

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
