package dev.consistentcut.stress.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.stress.harness.TimeoutVersusLastBarrierScenario;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/** The engine's alternating handler: see {@link TimeoutVersusLastBarrierScenario} for the race, the threading contract and the outcome columns. */
@JCStressTest
@Description("Alternating: the alignment timeout (fired after the last barrier was queued) races the task taking that barrier; the checkpoint completes aligned or switched, and a switched one persists exactly the records still ahead of the barrier when the task timed out.")
@Outcome(id = "1, 1, 0, 0", expect = ACCEPTABLE, desc = "op took both records and the last barrier before the timer fired: checkpoint 1 completed aligned, nothing persisted")
@Outcome(id = "1, 2, 0, 0", expect = ACCEPTABLE, desc = "op took both records before it timed out: switched to unaligned with nothing left ahead of the barrier, nothing persisted")
@Outcome(id = "1, 2, 1, 0", expect = ACCEPTABLE, desc = "op timed out with one record still ahead of the queued last barrier: that record persisted as channel state")
@Outcome(id = "1, 2, 2, 0", expect = ACCEPTABLE, desc = "op timed out before taking either record ahead of the queued last barrier: both persisted as channel state")
@Outcome(expect = FORBIDDEN, desc = "a record ahead of the barrier neither in the snapshot nor persisted (skipped), one persisted and counted (twice), not completed, an invariant violated, the run stuck (-1) or the engine threw (-2)")
@State
public class Alternating_01_TimeoutVersusLastBarrier {

    private final TimeoutVersusLastBarrierScenario scenario = new TimeoutVersusLastBarrierScenario(BarrierHandlers.alternating(0));

    @Actor
    public void upstream() {
        scenario.upstream();
    }

    @Actor
    public void taskLoop() {
        scenario.taskLoop();
    }

    @Arbiter
    public void judge(IIII_Result r) {
        scenario.judge(r);
    }
}
