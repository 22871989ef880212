package dev.consistentcut.stress.harness;

import dev.consistentcut.channel.Channel;
import dev.consistentcut.message.Message;
import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;

/**
 * A sender blocked in {@code putRecord} on a full channel while the receiver frees the last buffer:
 * the channel has one credit (capacity 2 in buffers of 2 records), filled by one full buffer
 * handed over before the race. The sender puts a third record and waits for the credit; the
 * receiver polls both records, and reading the buffer to its end frees the credit, which must wake
 * the sender. A missed wake-up leaves the sender waiting for good: a jcstress termination test
 * reports it as {@code STALE}.
 */
public final class BlockedSenderScenario {

    public static final int CAPACITY = 2;
    public static final int BUFFER_SIZE = 2;

    /** The part of a channel's contract this race exercises; one sender, one receiver thread. */
    public interface BlockingChannel {
        boolean offerRecord(Record r);

        void putRecord(Record r) throws InterruptedException;

        /** Hands the open buffer over, part-full; false if it is empty. */
        boolean flush();

        Message poll();

        static BlockingChannel of(Channel c) {
            return new BlockingChannel() {
                @Override
                public boolean offerRecord(Record r) {
                    return c.offerRecord(r);
                }

                @Override
                public void putRecord(Record r) throws InterruptedException {
                    c.putRecord(r);
                }

                @Override
                public boolean flush() {
                    return c.flush();
                }

                @Override
                public Message poll() {
                    return c.poll();
                }
            };
        }
    }

    private final BlockingChannel channel;

    /** Fills {@code channel} (one credit of {@value #BUFFER_SIZE} records) before the race. */
    public BlockedSenderScenario(BlockingChannel channel) {
        this.channel = channel;
        if (!channel.offerRecord(rec(1)) || !channel.offerRecord(rec(2))) {
            throw new IllegalStateException("the scenario needs an empty channel of one credit of 2 records");
        }
    }

    private static Record rec(long offset) {
        return new Record(new RecordId("s#0", offset), offset, offset);
    }

    /** Sender actor: puts a third record, waiting while the channel is full. */
    public void send() {
        try {
            channel.putRecord(rec(3));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for a credit", e);
        }
    }

    /** Receiver (the termination test's signal): reads the one buffer to its end, freeing its credit. */
    public void receive() {
        for (int i = 1; i <= 2; i++) {
            Message m = channel.poll();
            if (!(m instanceof Record r) || r.id().offset() != i) {
                throw new IllegalStateException("expected record " + i + ", polled " + m);
            }
        }
    }
}
