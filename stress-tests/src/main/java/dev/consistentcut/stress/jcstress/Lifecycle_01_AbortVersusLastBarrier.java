package dev.consistentcut.stress.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.stress.harness.AbortVersusLastBarrierScenario;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/** The engine's aligned handler: see {@link AbortVersusLastBarrierScenario} for the race, the threading contract and the outcome columns. */
@JCStressTest
@Description("Aligned lifecycle: an abort (NotifyCheckpointAborted after a timeout) races the last barrier of an alignment; the checkpoint ends completed xor aborted, an abandoned alignment releases every input, the run finishes exactly-once.")
@Outcome(id = "1, 1, 0, 0", expect = ACCEPTABLE, desc = "op took the last barrier first: aligned, acknowledged last and completed checkpoint 1; the abort came too late and was refused")
@Outcome(id = "2, 1, 0, 0", expect = ACCEPTABLE, desc = "op aligned checkpoint 1, but the abort won at the coordinator (before the last acknowledgement, then ignored, or before the completion, then refused)")
@Outcome(id = "2, 2, 0, 0", expect = ACCEPTABLE, desc = "the abort notification reached op before the last barrier: alignment abandoned, every input unblocked at once, the late barrier dropped")
@Outcome(expect = FORBIDDEN, desc = "completed after an abort, an input still blocked after the alignment was abandoned, the run stuck (-1), an invariant violated, or the engine threw (-2)")
@State
public class Lifecycle_01_AbortVersusLastBarrier {

    private final AbortVersusLastBarrierScenario scenario = new AbortVersusLastBarrierScenario(BarrierHandlers.aligned());

    @Actor
    public void coordinator() {
        scenario.abort();
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
