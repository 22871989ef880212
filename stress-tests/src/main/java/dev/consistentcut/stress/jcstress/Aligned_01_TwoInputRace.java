package dev.consistentcut.stress.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.stress.harness.TwoInputScenario;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/** The engine's aligned barrier handler: see {@link TwoInputScenario} for the race and the outcome columns. */
@JCStressTest
@Description("Aligned handler: records and barriers race on two inputs while the task loop consumes; "
        + "the snapshot is exactly the pre-barrier prefix of each input and nothing is persisted.")
@Outcome(id = "2, 1, 0, 0", expect = ACCEPTABLE, desc = "snapshot = the 2 records of s1 and 1 of s2 before the barrier; no channel state; invariants hold")
@Outcome(expect = FORBIDDEN, desc = "snapshot differs from the pre-barrier prefix, channel state persisted, an invariant violated (4th column: count; -1 not completed, -2 engine threw)")
@State
public class Aligned_01_TwoInputRace {

    private final TwoInputScenario scenario = new TwoInputScenario(BarrierHandlers.aligned());

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
