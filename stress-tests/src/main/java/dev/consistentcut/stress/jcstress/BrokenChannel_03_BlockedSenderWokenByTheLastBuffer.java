package dev.consistentcut.stress.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.consistentcut.stress.broken.BrokenLazyCreditChannel;
import dev.consistentcut.stress.harness.BlockedSenderScenario;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Mode;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.Signal;
import org.openjdk.jcstress.annotations.State;

/**
 * Twin of {@link Channel_03_BlockedSenderWokenByTheLastBuffer} with {@link BrokenLazyCreditChannel}:
 * must be caught (a forbidden outcome), run by {@code run-jcstress.sh --expect-broken}.
 */
@JCStressTest(Mode.Termination)
@Description("Broken twin: a channel that gives a buffer's credit back only when the receiver takes the next buffer.")
@Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "the receiver freed the credit and the sender's put went through")
@Outcome(id = "STALE", expect = FORBIDDEN, desc = "the sender still waits with the credit free: a missed wake-up")
@State
public class BrokenChannel_03_BlockedSenderWokenByTheLastBuffer {

    private final BlockedSenderScenario scenario = new BlockedSenderScenario(
            new BrokenLazyCreditChannel(BlockedSenderScenario.CAPACITY, BlockedSenderScenario.BUFFER_SIZE));

    @Actor
    public void sender() {
        scenario.send();
    }

    @Signal
    public void receiver() {
        scenario.receive();
    }
}
