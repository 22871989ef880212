package dev.consistentcut.channel;

import dev.consistentcut.message.Barrier;
import dev.consistentcut.message.CancelBarrier;
import dev.consistentcut.message.Message;
import dev.consistentcut.message.Record;
import java.util.List;
import java.util.Objects;

/**
 * The operations of a channel's two ends, as {@link Channel} forwards them: implemented by the
 * plain path ({@link SpscChannel}) and by the decorators that wrap it ({@link CausalChannel}).
 * Each operation means what the {@link Channel} method of the same name says, under the same
 * threading contract; a decorator may add a lock around them but must not change what they return.
 */
interface ChannelEnds {

    boolean hasRoom();

    boolean offerRecord(Record r);

    /** Waits until {@link #hasRoom} (on the sender's thread). */
    void awaitRoom() throws InterruptedException;

    /** Appends {@code r}, waiting while the channel is full: every decorator's offer, the plain path's wait. */
    default void putRecord(Record r) throws InterruptedException {
        Objects.requireNonNull(r, "record");
        while (!offerRecord(r)) {
            awaitRoom();
        }
    }

    boolean flush();

    boolean hasOpenBuffer();

    void putBarrier(Barrier b);

    List<Record> putBarrierOvertaking(Barrier b);

    void putCancelBarrier(CancelBarrier b, boolean priority);

    void putEndOfPartition();

    Message peek();

    Message poll();

    Barrier firstInBandBarrier();

    List<Record> prioritizeBarrier(long checkpointId);

    int recordCount();

    boolean isEmpty();

    List<Message> contents();

    void restore(List<Record> persisted);
}
