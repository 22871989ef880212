package dev.consistentcut.stress.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.consistentcut.channel.Channel;
import dev.consistentcut.stress.harness.MidBufferOvertakeScenario;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/** The engine's buffered {@link Channel}: see {@link MidBufferOvertakeScenario} for the race and the outcome columns. */
@JCStressTest
@Description("Buffered channel: the receiver reads a handed-over buffer of 3 records without a lock while the sender "
        + "puts an overtaking barrier; each record delivered before the barrier or persisted, never both, none lost.")
@Outcome(id = "0, 3, 0", expect = ACCEPTABLE, desc = "the barrier came before the receiver read anything: the whole buffer persisted")
@Outcome(id = "1, 2, 0", expect = ACCEPTABLE_INTERESTING, desc = "the barrier came after the first record: delivered between two records of one buffer, the rest persisted")
@Outcome(id = "2, 1, 0", expect = ACCEPTABLE_INTERESTING, desc = "the barrier came after the second record: delivered before the last one, which is persisted")
@Outcome(id = "3, 0, 0", expect = ACCEPTABLE, desc = "the receiver read the whole buffer before the barrier came: nothing persisted")
@Outcome(expect = FORBIDDEN, desc = "a record lost, duplicated, delivered before the barrier and persisted, in neither, or out of order (3rd column: defect code)")
@State
public class Buffers_01_OvertakeMidBuffer {

    private final MidBufferOvertakeScenario scenario = new MidBufferOvertakeScenario(MidBufferOvertakeScenario.BufferedChannel.of(
            new Channel("s#0->t#0", MidBufferOvertakeScenario.CAPACITY, MidBufferOvertakeScenario.BUFFER_SIZE)));

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
