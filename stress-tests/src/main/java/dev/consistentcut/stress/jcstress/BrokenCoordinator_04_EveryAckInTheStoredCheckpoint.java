package dev.consistentcut.stress.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.consistentcut.stress.harness.AckContentScenario;
import dev.consistentcut.stress.broken.BrokenCountFirstCoordinator;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Twin of {@link Coordinator_04_EveryAckInTheStoredCheckpoint} with {@link BrokenCountFirstCoordinator}:
 * must be caught (a forbidden outcome), run by {@code run-jcstress.sh --expect-broken}.
 */
@JCStressTest
@Description("Broken twin: a coordinator that counts an acknowledgement before recording its content.")
@Outcome(id = "5, 7, 2, 1", expect = ACCEPTABLE, desc = "checkpoint 1 completed and stored with a's offset 5 and b's offset 7")
@Outcome(expect = FORBIDDEN, desc = "an acknowledgement missing from the stored checkpoint (-1), not completed, nothing stored, or the coordinator threw (4th column -2)")
@State
public class BrokenCoordinator_04_EveryAckInTheStoredCheckpoint {

    private final AckContentScenario scenario = new AckContentScenario(new BrokenCountFirstCoordinator());

    @Actor
    public void taskA() {
        scenario.acknowledge("a", AckContentScenario.OFFSET_A);
    }

    @Actor
    public void taskB() {
        scenario.acknowledge("b", AckContentScenario.OFFSET_B);
    }

    @Arbiter
    public void judge(IIII_Result r) {
        scenario.judge(r);
    }
}
