package dev.consistentcut.stress.harness;

import dev.consistentcut.channel.Channel;
import dev.consistentcut.message.Barrier;
import dev.consistentcut.message.Message;
import dev.consistentcut.message.Record;
import java.util.List;

/**
 * The part of {@link Channel}'s contract that the channel stress tests exercise, so that one
 * harness drives both the real channel and its deliberately broken twin. Same threading contract
 * as {@link Channel}: one sender thread, one receiver thread.
 */
public interface ChannelUnderTest {

    /** Sender: queue {@code r} if there is room; false and nothing changed when full. */
    boolean offerRecord(Record r);

    /** Sender: put {@code b} in the priority lane; returns the records it overtook, in FIFO order. */
    List<Record> putBarrierOvertaking(Barrier b);

    /** Receiver: the next element (priority lane first), or null if empty. */
    Message poll();

    /** The engine's channel. */
    static ChannelUnderTest of(Channel c) {
        return new ChannelUnderTest() {
            @Override
            public boolean offerRecord(Record r) {
                return c.offerRecord(r);
            }

            @Override
            public List<Record> putBarrierOvertaking(Barrier b) {
                return c.putBarrierOvertaking(b);
            }

            @Override
            public Message poll() {
                return c.poll();
            }
        };
    }
}
