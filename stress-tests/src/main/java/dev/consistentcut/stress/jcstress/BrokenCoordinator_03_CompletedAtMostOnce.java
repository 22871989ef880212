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
 * Twin of {@link Coordinator_03_CompletedAtMostOnce} on {@link BrokenUnlockedCoordinator} (the decisions without the lock):
 * must be caught (a forbidden outcome), run by {@code run-jcstress.sh --expect-broken}.
 */
@JCStressTest
@Description("Broken twin: both tasks acknowledge and both call complete; the checkpoint is completed and stored exactly once. (coordinator without its lock)")
@Outcome(id = "1, 0, 2, 1", expect = ACCEPTABLE, desc = "task a's call completed it; task b's was refused")
@Outcome(id = "0, 1, 2, 1", expect = ACCEPTABLE, desc = "task b's call completed it; task a's was refused")
@Outcome(expect = FORBIDDEN, desc = "completed twice, never completed although both acknowledged, or the coordinator threw (-2, e.g. a second store of the same id)")
@State
public class BrokenCoordinator_03_CompletedAtMostOnce {

    private final CoordinatorScenario scenario = new CoordinatorScenario(
            tasks -> new BrokenUnlockedCoordinator(tasks, new InMemoryCheckpointStore(2)), false);

    @Actor
    public void taskA() {
        scenario.acknowledgeThenComplete("a", true);
    }

    @Actor
    public void taskB() {
        scenario.acknowledgeThenComplete("b", false);
    }

    @Arbiter
    public void judge(IIII_Result r) {
        scenario.judge(r);
    }
}
