package dev.consistentcut.stress.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.consistentcut.checkpoint.InMemoryCheckpointStore;
import dev.consistentcut.stress.broken.BrokenUnlockedCoordinator;
import dev.consistentcut.stress.harness.CoordinatorScenario;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Twin of {@link Coordinator_02_AckVersusFailAndRestore} on {@link BrokenUnlockedCoordinator} (the decisions without the lock):
 * must be caught (a forbidden outcome), run by {@code run-jcstress.sh --expect-broken}.
 */
@JCStressTest
@Description("Broken twin: the last acknowledgement (and the completion it triggers) races a global failure; the checkpoint ends completed xor aborted, and a restore uses it only if completed. (coordinator without its lock)")
@Outcome(id = "1, 1, 2, 1", expect = ACCEPTABLE, desc = "completed and stored before the failure, which restores from it")
@Outcome(id = "0, 0, 3, 0", expect = ACCEPTABLE, desc = "the failure came first: checkpoint aborted and discarded, restore from the initial state, nothing stored")
@Outcome(expect = FORBIDDEN, desc = "completed although the failure restored the initial state, restored from an uncompleted checkpoint, both statuses, or the coordinator threw (-2)")
@State
public class BrokenCoordinator_02_AckVersusFailAndRestore {

    private final CoordinatorScenario scenario = new CoordinatorScenario(
            tasks -> new BrokenUnlockedCoordinator(tasks, new InMemoryCheckpointStore(2)), true);

    @Actor
    public void acker() {
        scenario.acknowledgeAndComplete();
    }

    @Actor
    public void failure() {
        scenario.failAndRestore();
    }

    @Arbiter
    public void judge(IIII_Result r) {
        scenario.judge(r);
    }
}
