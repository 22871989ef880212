package dev.consistentcut.stress.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.consistentcut.checkpoint.InMemoryCheckpointStore;
import dev.consistentcut.stress.harness.CoordinatorScenario;
import dev.consistentcut.stress.harness.CoordinatorUnderTest;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/** The engine's coordinator: see {@link CoordinatorScenario} for the outcome columns. */
@JCStressTest
@Description("Coordinator: the last acknowledgement (and the completion it triggers) races an abort; the checkpoint ends completed xor aborted.")
@Outcome(id = "1, 0, 2, 1", expect = ACCEPTABLE, desc = "the last ack completed and stored the checkpoint; the abort came too late and was refused")
@Outcome(id = "0, 1, 3, 0", expect = ACCEPTABLE, desc = "the abort came first: the ack was ignored or the completion refused; nothing stored")
@Outcome(expect = FORBIDDEN, desc = "completed and aborted, completed but not stored, stored but not completed, neither, or the coordinator threw (-2)")
@State
public class Coordinator_01_AckVersusAbort {

    private final CoordinatorScenario scenario = new CoordinatorScenario(
            tasks -> CoordinatorUnderTest.engine(tasks, new InMemoryCheckpointStore(2)), true);

    @Actor
    public void acker() {
        scenario.acknowledgeAndComplete();
    }

    @Actor
    public void aborter() {
        scenario.abort();
    }

    @Arbiter
    public void judge(IIII_Result r) {
        scenario.judge(r);
    }
}
