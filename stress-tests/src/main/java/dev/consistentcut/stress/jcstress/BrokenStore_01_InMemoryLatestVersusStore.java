package dev.consistentcut.stress.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.consistentcut.stress.broken.BrokenPointerFirstMemoryStore;
import dev.consistentcut.stress.harness.StoreScenario;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Twin of {@link Store_01_InMemoryLatestVersusStore} on {@link BrokenPointerFirstMemoryStore}, which publishes the latest pointer before the checkpoint:
 * must be caught (a forbidden outcome), run by {@code run-jcstress.sh --expect-broken}.
 */
@JCStressTest
@Description("Broken twin: a store that publishes the latest pointer before the checkpoint.")
@Outcome(id = "1, 2", expect = ACCEPTABLE, desc = "the reader saw the whole previous checkpoint")
@Outcome(id = "2, 2", expect = ACCEPTABLE, desc = "the reader saw the whole new checkpoint")
@Outcome(expect = FORBIDDEN, desc = "the reader saw nothing (0), or a partial, corrupt or failing read (-1); or the new checkpoint is not the latest afterwards")
@State
public class BrokenStore_01_InMemoryLatestVersusStore {

    private final StoreScenario scenario = new StoreScenario(new BrokenPointerFirstMemoryStore(true), () -> { });

    @Actor
    public void writer() {
        scenario.write();
    }

    @Actor
    public void reader() {
        scenario.read();
    }

    @Arbiter
    public void judge(II_Result r) {
        scenario.judge(r);
    }
}
