package dev.consistentcut.stress.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
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

/** The engine's unaligned barrier handler: see {@link TwoInputScenario} for the race and the outcome columns. */
@JCStressTest
@Description("Unaligned handler: the task snapshots on the first barrier while records keep arriving; snapshot plus persisted records form a consistent cut.")
@Outcome(id = "2, 1, 0, 0", expect = ACCEPTABLE, desc = "every pre-barrier record processed before the snapshot; nothing persisted")
@Outcome(id = "2, 0, 1, 0", expect = ACCEPTABLE, desc = "s2's pre-barrier record persisted (overtaken or taken before s2's barrier); cut consistent")
@Outcome(id = "1, 1, 1, 0", expect = ACCEPTABLE_INTERESTING, desc = "one of s1's pre-barrier records persisted; cut consistent")
@Outcome(id = "1, 0, 2, 0", expect = ACCEPTABLE_INTERESTING, desc = "one of s1's and s2's pre-barrier records persisted; cut consistent")
@Outcome(id = "0, 1, 2, 0", expect = ACCEPTABLE, desc = "both of s1's pre-barrier records persisted; cut consistent")
@Outcome(id = "0, 0, 3, 0", expect = ACCEPTABLE, desc = "snapshot before any record; all 3 pre-barrier records persisted; cut consistent")
@Outcome(expect = FORBIDDEN, desc = "snapshot + persisted is not the pre-barrier prefix, an input blocked, or an invariant violated (4th column: count; -1 not completed, -2 engine threw)")
@State
public class Unaligned_01_SnapshotWhileRecordsArrive {

    private final TwoInputScenario scenario = new TwoInputScenario(BarrierHandlers.unaligned());

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
