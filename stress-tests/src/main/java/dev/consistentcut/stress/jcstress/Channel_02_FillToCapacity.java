package dev.consistentcut.stress.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.consistentcut.channel.Channel;
import dev.consistentcut.stress.harness.CapacityScenario;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/** The engine's {@link Channel}: see {@link CapacityScenario} for the race and the outcome columns. */
@JCStressTest
@Description("Channel: a sender offers 4 records to a channel of capacity 2 while the receiver polls twice; "
        + "never more than 2 held, the count equals the records held, every accepted record delivered once, in order.")
@Outcome(id = "2, 0, 2, 0", expect = ACCEPTABLE, desc = "the sender filled the channel before any poll: 2 accepted, 2 refused, none taken yet")
@Outcome(id = "2, 1, 1, 0", expect = ACCEPTABLE, desc = "2 accepted (full when the 3rd and 4th were offered), 1 taken during the race")
@Outcome(id = "2, 2, 0, 0", expect = ACCEPTABLE, desc = "2 accepted, both taken during the race")
@Outcome(id = "3, 1, 2, 0", expect = ACCEPTABLE_INTERESTING, desc = "a poll made room for a 3rd record; full again")
@Outcome(id = "3, 2, 1, 0", expect = ACCEPTABLE_INTERESTING, desc = "polls made room for a 3rd record")
@Outcome(id = "4, 2, 2, 0", expect = ACCEPTABLE_INTERESTING, desc = "each poll made room for one more record: all 4 accepted, full at the end")
@Outcome(expect = FORBIDDEN, desc = "the count differs from the records held (4th column 1), more than the capacity held (2), a record lost, duplicated or reordered (3), or a wrong count after draining (4)")
@State
public class Channel_02_FillToCapacity {

    private final CapacityScenario scenario = new CapacityScenario(CapacityScenario.CountingChannel.of(new Channel("s#0->t#0", CapacityScenario.CAPACITY)));

    @Actor
    public void sender() {
        scenario.send();
    }

    @Actor
    public void receiver() {
        scenario.receive();
    }

    @Arbiter
    public void judge(IIII_Result r) {
        scenario.judge(r);
    }
}
