package dev.consistentcut.stress.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.consistentcut.checkpoint.InMemoryCheckpointStore;
import dev.consistentcut.stress.harness.StoreScenario;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/** The engine's store: see {@link StoreScenario} for the race and the outcome columns. */
@JCStressTest
@Description("In-memory store: a reader of latest() races a writer of the next checkpoint; it never sees a partial checkpoint.")
@Outcome(id = "1, 2", expect = ACCEPTABLE, desc = "the reader saw the whole previous checkpoint")
@Outcome(id = "2, 2", expect = ACCEPTABLE, desc = "the reader saw the whole new checkpoint")
@Outcome(expect = FORBIDDEN, desc = "the reader saw nothing (0), or a partial, corrupt or failing read (-1); or the new checkpoint is not the latest afterwards")
@State
public class Store_01_InMemoryLatestVersusStore {

    private final StoreScenario scenario = new StoreScenario(new InMemoryCheckpointStore(2), () -> { });

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
