package dev.consistentcut.stress.lincheck;

import static dev.consistentcut.stress.lincheck.ChannelModel.record;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.consistentcut.channel.Channel;
import dev.consistentcut.message.Message;
import dev.consistentcut.stress.StressMode;
import dev.consistentcut.stress.broken.BrokenLazyCreditChannel;
import dev.consistentcut.stress.harness.BlockedSenderScenario.BlockingChannel;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.lincheck.LincheckAssertionError;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.junit.jupiter.api.Test;

/**
 * The channel's only blocking call, {@code putRecord}, against {@link ChannelModel}: a sender
 * waiting on a full channel while the receiver frees room. As in {@link WakeupStopTest}, blocking
 * is modelled by the scenario, not by the generator: the model checker runs only hand-written
 * scenarios in which a poll frees the room the put waits for, tries every interleaving of the
 * sender's wait (its flag, its look at the receiver's count, its await) with the receiver's
 * poll (its count, its look at the flag, its signal), and reports a sender left waiting for good
 * as a deadlock. The model refuses a put on a full channel, so a put must take effect after the
 * poll that made room, and every record comes out once, in order.
 */
class ChannelBlockingPutTest {

    /** The operations the scenarios use, on any channel of one sender and one receiver. */
    abstract static class BlockingOps {
        private final BlockingChannel channel;

        BlockingOps(BlockingChannel channel) {
            this.channel = channel;
        }

        @Operation(nonParallelGroup = "sender")
        public boolean offerRecord(int offset) {
            return channel.offerRecord(record(offset));
        }

        @Operation(nonParallelGroup = "sender")
        public void putRecord(int offset) throws InterruptedException {
            channel.putRecord(record(offset));
        }

        @Operation(nonParallelGroup = "sender")
        public void flush() {
            channel.flush();
        }

        @Operation(nonParallelGroup = "receiver")
        public Message poll() {
            return channel.poll();
        }
    }

    /** The engine's channel in buffers of one record: two credits. */
    public static class OneRecordBuffers extends BlockingOps {
        public OneRecordBuffers() {
            super(BlockingChannel.of(new Channel("s#0->t#0", ChannelModel.CAPACITY, 1)));
        }
    }

    /** The engine's channel in one buffer of two records: one credit, freed by the buffer's last record. */
    public static class OneTwoRecordBuffer extends BlockingOps {
        public OneTwoRecordBuffer() {
            super(BlockingChannel.of(new Channel("s#0->t#0", ChannelModel.CAPACITY, 2)));
        }
    }

    /** The channel that gives a credit back only when the receiver takes the next buffer: must be rejected. */
    public static class LazyCredit extends BlockingOps {
        public LazyCredit() {
            super(new BrokenLazyCreditChannel(ChannelModel.CAPACITY, 2));
        }
    }

    /**
     * The channel full before the race (records 0 and 1); the sender puts record 2 and waits; the
     * receiver polls {@code polls} records, the last of which frees a credit; the rest is drained
     * after (the open buffer handed over first).
     */
    private static ExecutionScenario blockedSender(Class<?> ops, int polls) {
        Scenarios s = Scenarios.of(ops)
                .init("offerRecord", 0).init("offerRecord", 1)
                .thread("putRecord", 2).then("flush")
                .thread("poll");
        for (int i = 1; i < polls; i++) {
            s.then("poll");
        }
        for (int i = polls; i < 3; i++) {
            s.post("poll");
        }
        return s.post("poll").build();
    }

    private static ModelCheckingOptions modelChecking() {
        return new ModelCheckingOptions()
                .iterations(0)
                .invocationsPerIteration(StressMode.pick(1_000, 10_000))
                .sequentialSpecification(ChannelModel.class);
    }

    @Test
    void aSenderWaitingForACreditIsWokenByThePollThatFreesIt() {
        modelChecking().addCustomScenario(blockedSender(OneRecordBuffers.class, 1)).check(OneRecordBuffers.class);
    }

    @Test
    void aSenderWaitingForTheLastBufferIsWokenWhenTheReceiverReadsItToItsEnd() {
        modelChecking().addCustomScenario(blockedSender(OneTwoRecordBuffer.class, 2)).check(OneTwoRecordBuffer.class);
    }

    @Test
    void modelCheckingFindsTheSenderLeftWaitingByALazyCredit() {
        LincheckAssertionError e = assertThrows(LincheckAssertionError.class, () -> modelChecking()
                .addCustomScenario(blockedSender(LazyCredit.class, 2)).check(LazyCredit.class));
        LincheckReport.print("channel that gives a credit back only on the next buffer", e);
    }
}
