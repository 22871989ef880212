package dev.consistentcut.bench.micro;

import dev.consistentcut.bench.JobShape;
import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
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
 * The physical limit of a hand-off between two threads: a bare bounded single-producer
 * single-consumer ring of {@code capacity} slots, no buffers, no barriers, no priority lane, the
 * producer making a fresh record per hand-off (as a source does). What {@link ChannelHandOffBenchmark}
 * measures for the engine's channel, less everything a channel adds to the queue. Same shape: one
 * JMH group of a producer and a consumer, both retrying with {@code Thread.yield()}; the group's
 * score is twice the hand-off rate (each side counts every record).
 */
@State(Scope.Group)
@BenchmarkMode(org.openjdk.jmh.annotations.Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class RawHandOffBenchmark {

    /** Slots of the ring: a short queue and the macro benchmark's channel depth in records. */
    @Param({"16", "1000"})
    public int capacity;

    private Ring ring;
    private long nextOffset;

    @Setup(Level.Iteration)
    public void setUp() {
        ring = new Ring(capacity);
    }

    @Benchmark
    @Group("rawHandOff")
    @GroupThreads(1)
    public boolean offer(Control control) {
        long offset = nextOffset++;
        Record r = new Record(new RecordId("s1", offset), JobShape.keyAt(offset), 1);
        while (!ring.offer(r)) {
            if (control.stopMeasurement) {
                return false;
            }
            Thread.yield();
        }
        return true;
    }

    @Benchmark
    @Group("rawHandOff")
    @GroupThreads(1)
    public Record poll(Control control) {
        Record r;
        while ((r = ring.poll()) == null) {
            if (control.stopMeasurement) {
                return null;
            }
            Thread.yield();
        }
        return r;
    }

    /**
     * A bounded SPSC ring: the producer writes a slot and then publishes its index with a release
     * store; the consumer reads the index with an acquire load and then the slot, so the slot's
     * record is visible to it. Each side caches the other's index and rereads it only when the
     * ring looks full (producer) or empty (consumer). One producer thread calls {@link #offer},
     * one consumer thread {@link #poll}.
     */
    static final class Ring {
        private final Object[] slots;
        private final int mask;
        private final AtomicLong produced = new AtomicLong();
        private final AtomicLong consumed = new AtomicLong();
        private long consumedCache;
        private long producedCache;

        Ring(int capacity) {
            int size = Integer.highestOneBit(Math.max(1, capacity - 1)) << 1;
            this.slots = new Object[size];
            this.mask = size - 1;
        }

        boolean offer(Object e) {
            long p = produced.get();
            if (p - consumedCache >= slots.length) {
                consumedCache = consumed.get();
                if (p - consumedCache >= slots.length) {
                    return false;
                }
            }
            slots[(int) (p & mask)] = e;
            produced.lazySet(p + 1);
            return true;
        }

        @SuppressWarnings("unchecked")
        <E> E poll() {
            long c = consumed.get();
            if (c >= producedCache) {
                producedCache = produced.get();
                if (c >= producedCache) {
                    return null;
                }
            }
            int i = (int) (c & mask);
            E e = (E) slots[i];
            slots[i] = null;
            consumed.lazySet(c + 1);
            return e;
        }
    }
}
