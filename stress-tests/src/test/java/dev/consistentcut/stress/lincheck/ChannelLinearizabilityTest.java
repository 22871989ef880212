package dev.consistentcut.stress.lincheck;

import static dev.consistentcut.stress.lincheck.ChannelModel.barrier;
import static dev.consistentcut.stress.lincheck.ChannelModel.record;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.consistentcut.channel.Channel;
import dev.consistentcut.message.Message;
import dev.consistentcut.message.Record;
import dev.consistentcut.stress.StressMode;
import dev.consistentcut.stress.broken.BrokenOvertakingChannel;
import java.util.List;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.lincheck.LincheckAssertionError;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.Test;

/**
 * {@link Channel} is linearizable with respect to {@link ChannelModel}, for the threads its
 * contract allows: one sender (group {@code sender}), one receiver (group {@code receiver}) with
 * the observers {@code recordCount} and {@code isEmpty}. Lincheck never runs two operations of one
 * non-parallel group at once, which is exactly the single-producer single-consumer contract.
 * Network buffers narrowed the observers' contract: with buffers read without a lock, the counts are
 * exact on the receiver's thread only, and {@code contents} only while neither side runs (the
 * threaded runtime reads it under its trace lock); so {@code contents} is no operation here
 * (ChannelTest and BufferedChannelTest check it single-threaded).
 */
class ChannelLinearizabilityTest {

    /**
     * The engine's channel, every operation of its contract except the blocking {@code putRecord}
     * (a generated scenario would leave it waiting for good; {@link ChannelBlockingPutTest} runs it
     * in scenarios where a poll frees its room).
     */
    @Param(name = "offset", gen = IntGen.class, conf = "0:3")
    @Param(name = "id", gen = IntGen.class, conf = "1:2")
    public static class EngineChannel {
        private final Channel channel = new Channel("s#0->t#0", ChannelModel.CAPACITY);

        @Operation(nonParallelGroup = "sender")
        public boolean offerRecord(@Param(name = "offset") int offset) {
            return channel.offerRecord(record(offset));
        }

        @Operation(nonParallelGroup = "sender")
        public boolean hasRoom() {
            return channel.hasRoom();
        }

        @Operation(nonParallelGroup = "sender")
        public void putBarrier(@Param(name = "id") int id) {
            channel.putBarrier(barrier(id));
        }

        @Operation(nonParallelGroup = "sender")
        public List<Record> putBarrierOvertaking(@Param(name = "id") int id) {
            return channel.putBarrierOvertaking(barrier(id));
        }

        @Operation(nonParallelGroup = "receiver")
        public Message poll() {
            return channel.poll();
        }

        @Operation(nonParallelGroup = "receiver")
        public Message peek() {
            return channel.peek();
        }

        @Operation(nonParallelGroup = "receiver")
        public int recordCount() {
            return channel.recordCount();
        }

        @Operation(nonParallelGroup = "receiver")
        public boolean isEmpty() {
            return channel.isEmpty();
        }
    }

    /** The deliberately non-atomic overtaking insert: must be rejected. */
    @Param(name = "offset", gen = IntGen.class, conf = "0:3")
    @Param(name = "id", gen = IntGen.class, conf = "1:2")
    public static class BrokenChannel {
        private final BrokenOvertakingChannel channel = new BrokenOvertakingChannel(ChannelModel.CAPACITY);

        @Operation(nonParallelGroup = "sender")
        public boolean offerRecord(@Param(name = "offset") int offset) {
            return channel.offerRecord(record(offset));
        }

        @Operation(nonParallelGroup = "sender")
        public List<Record> putBarrierOvertaking(@Param(name = "id") int id) {
            return channel.putBarrierOvertaking(barrier(id));
        }

        @Operation(nonParallelGroup = "receiver")
        public Message poll() {
            return channel.poll();
        }
    }

    /** The race the channel is about: the receiver polls while the sender's barrier overtakes two records. */
    private static ExecutionScenario overtakingRace(Class<?> ops) {
        return Scenarios.of(ops)
                .init("offerRecord", 0).init("offerRecord", 1)
                .thread("putBarrierOvertaking", 1).then("offerRecord", 2)
                .thread("poll").then("poll")
                .post("poll").post("poll").post("poll")
                .build();
    }

    private static ModelCheckingOptions modelChecking() {
        return new ModelCheckingOptions()
                .iterations(StressMode.pick(6, 30))
                .invocationsPerIteration(StressMode.pick(60, 1_000))
                .threads(2)
                .actorsPerThread(3)
                .actorsBefore(2)
                .actorsAfter(1)
                .sequentialSpecification(ChannelModel.class);
    }

    @Test
    void modelCheckingFindsNoNonLinearizableExecution() {
        modelChecking().addCustomScenario(overtakingRace(EngineChannel.class)).check(EngineChannel.class);
    }

    @Test
    void stressFindsNoNonLinearizableExecution() {
        new StressOptions()
                .iterations(StressMode.pick(3, 30))
                .invocationsPerIteration(StressMode.pick(200, 2_000))
                .threads(2)
                .actorsPerThread(3)
                .sequentialSpecification(ChannelModel.class)
                .check(EngineChannel.class);
    }

    @Test
    void modelCheckingRejectsTheNonAtomicOvertakingInsert() {
        // Not minimized: the test only needs the verdict; lincheck prints the failing interleaving.
        LincheckAssertionError e = assertThrows(LincheckAssertionError.class,
                () -> modelChecking().iterations(0).addCustomScenario(overtakingRace(BrokenChannel.class))
                        .check(BrokenChannel.class));
        LincheckReport.print("channel with a non-atomic overtaking insert", e);
    }
}
