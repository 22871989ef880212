package dev.consistentcut.stress.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.consistentcut.channel.Channel;
import dev.consistentcut.stress.harness.BlockedSenderScenario;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Mode;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.Signal;
import org.openjdk.jcstress.annotations.State;

/**
 * The engine's {@link Channel}: see {@link BlockedSenderScenario}. A termination test: the sender
 * is the actor, the receiver freeing the last buffer is the signal; a sender that never returns is
 * the outcome {@code STALE}, so a missed wake-up is a forbidden outcome, not a hung run.
 */
@JCStressTest(Mode.Termination)
@Description("Channel: a sender waits in putRecord on a full channel (one credit, one full buffer handed over) "
        + "while the receiver reads that last buffer to its end; the freed credit must wake the sender.")
@Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "the receiver freed the credit and the sender's put went through")
@Outcome(id = "STALE", expect = FORBIDDEN, desc = "the sender still waits with the credit free: a missed wake-up")
@State
public class Channel_03_BlockedSenderWokenByTheLastBuffer {

    private final BlockedSenderScenario scenario = new BlockedSenderScenario(BlockedSenderScenario.BlockingChannel.of(
            new Channel("s#0->t#0", BlockedSenderScenario.CAPACITY, BlockedSenderScenario.BUFFER_SIZE)));

    @Actor
    public void sender() {
        scenario.send();
    }

    @Signal
    public void receiver() {
        scenario.receive();
    }
}
