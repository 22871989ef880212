package dev.consistentcut.stress.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.consistentcut.channel.Channel;
import dev.consistentcut.stress.harness.ChannelUnderTest;
import dev.consistentcut.stress.harness.OvertakeScenario;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/** The engine's {@link Channel}: see {@link OvertakeScenario} for the race and the outcome columns. */
@JCStressTest
@Description("Channel: a sender offers records and inserts an overtaking barrier while the receiver polls; "
        + "each record sent before the barrier is delivered before it or persisted, never both, none lost or duplicated.")
@Outcome(id = "2, 0, 0", expect = ACCEPTABLE, desc = "receiver took both records before the barrier was inserted; nothing persisted")
@Outcome(id = "1, 1, 0", expect = ACCEPTABLE_INTERESTING, desc = "barrier inserted between the receiver's two polls: one delivered, one persisted")
@Outcome(id = "0, 2, 0", expect = ACCEPTABLE, desc = "barrier inserted before the receiver took anything: both persisted")
@Outcome(expect = FORBIDDEN, desc = "a record lost, duplicated, delivered before the barrier and persisted, in neither, or out of order (3rd column: defect code)")
@State
public class Channel_01_PriorityOvertake {

    private final OvertakeScenario scenario = new OvertakeScenario(ChannelUnderTest.of(new Channel("s#0->t#0", 4)));

    @Actor
    public void sender() {
        scenario.send();
    }

    @Actor
    public void receiver() {
        scenario.receive();
    }

    @Arbiter
    public void judge(III_Result r) {
        scenario.judge(r);
    }
}
