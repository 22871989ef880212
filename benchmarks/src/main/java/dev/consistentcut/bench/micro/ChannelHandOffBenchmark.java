package dev.consistentcut.bench.micro;

import dev.consistentcut.bench.JobShape;
import dev.consistentcut.channel.BufferEncoding;
import dev.consistentcut.channel.Channel;
import dev.consistentcut.message.Message;
import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Control;

/**
 * Hand-off of records through one {@link Channel} between two threads, the engine's basic cost
 * per record and hop. One producer offers, one consumer polls; both retry while the channel is
 * full or empty, so the figure is the channel's own cost, not a thread wake-up's. They retry with
 * {@code Thread.yield()} rather than a busy spin: on a machine with fewer free cores than the two
 * threads, a spinning waiter burns the time slice its partner needs to make progress. The two methods run as one JMH group: its score is records handed
 * over per microsecond (producer and consumer each count every record once, so the group's score
 * is twice the hand-off rate; JMH reports per method as well).
 *
 * <p>{@code bufferSize}: records per network buffer. 1 is a hand-off per record (a
 * lock-free queue operation and a wake-up per record); larger buffers hand over once per buffer
 * and leave per record only the array write, the receiver's published read position and its
 * check of the priority lane. Scores are per record; the cost per buffer is the per-record time
 * times the buffer size (a buffer is capped at the capacity). The producer makes a fresh record
 * for every hand-off, as a source does: one record object reused would stay in the cache of both
 * cores and flatter the channel. {@link RawHandOffBenchmark} is the same hand-off through a bare
 * ring, the limit this one is compared with.
 */
@State(Scope.Group)
@BenchmarkMode(org.openjdk.jmh.annotations.Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ChannelHandOffBenchmark {

    /** Records the channel holds: a short queue (hand-off in lock step) and the macro benchmark's depth. */
    @Param({"16", "1000"})
    public int capacity;

    /** Records per buffer: 1 (per-record hand-off) and 250 (the macro benchmark's buffers, about Flink's 8 KB of this job's records). */
    @Param({"1", "250"})
    public int bufferSize;

    /** How the buffers carry the records: the objects, or serialized on hand-over and decoded by the receiver. */
    @Param({"REFERENCES", "SERIALIZED"})
    public BufferEncoding encoding;

    private Channel channel;
    private long nextOffset;

    @Setup(Level.Iteration)
    public void setUp() {
        channel = new Channel("s#0->t#0", capacity, bufferSize, encoding);
    }

    @Benchmark
    @Group("handOff")
    @GroupThreads(1)
    public boolean offer(Control control) {
        long offset = nextOffset++;
        Record record = new Record(new RecordId("s1", offset), JobShape.keyAt(offset), 1);
        while (!channel.offerRecord(record)) {
            if (control.stopMeasurement) {
                return false;
            }
            Thread.yield();
        }
        return true;
    }

    @Benchmark
    @Group("handOff")
    @GroupThreads(1)
    public Message poll(Control control) {
        Message e;
        while ((e = channel.poll()) == null) {
            if (control.stopMeasurement) {
                return null;
            }
            Thread.yield();
        }
        return e;
    }
}
