package dev.consistentcut.stress.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.consistentcut.stress.broken.BrokenLifecycleModes;
import dev.consistentcut.stress.harness.NewerBarrierVersusAbortScenario;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Twin of {@link Lifecycle_02_NewerBarrierVersusAbort} with
 * {@link BrokenLifecycleModes#alignedSubsumptionKeepsArrivedInputs()}: must be caught (a forbidden
 * outcome), run by {@code run-jcstress.sh --expect-broken}.
 */
@JCStressTest
@Description("Broken twin: an aligned handler that carries the subsumed checkpoint's arrived inputs over to the newer one (BugSubsumptionKeepsArrivedInputs).")
@Outcome(id = "2, 1, 2, 0", expect = ACCEPTABLE, desc = "the abort notification reached op first: checkpoint 1 abandoned, input 0 unblocked; checkpoint 2 aligned and completed")
@Outcome(id = "2, 1, 3, 0", expect = ACCEPTABLE, desc = "barrier 2 reached op first: checkpoint 1 subsumed (abandoned, declined), checkpoint 2 started with input 1 only, aligned and completed; the late notification changed nothing")
@Outcome(expect = FORBIDDEN, desc = "checkpoint 1 completed, checkpoint 2 not completed, op aligned checkpoint 1 without its second barrier, the run stuck (-1), an invariant violated (e.g. NoSkipInv in checkpoint 2), or the engine threw (-2)")
@State
public class BrokenLifecycle_02_NewerBarrierVersusAbort {

    private final NewerBarrierVersusAbortScenario scenario = new NewerBarrierVersusAbortScenario(BrokenLifecycleModes.alignedSubsumptionKeepsArrivedInputs());

    @Actor
    public void coordinator() {
        scenario.abortAndTriggerNext();
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
