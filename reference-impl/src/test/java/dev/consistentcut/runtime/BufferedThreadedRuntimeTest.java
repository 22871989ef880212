package dev.consistentcut.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.barrier.DeliveryGuarantee;
import dev.consistentcut.channel.BufferEncoding;
import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import dev.consistentcut.operator.RecordingSink;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The threaded runtime with network buffers: real threads, outcomes only. Buffers of
 * several records, a part-full buffer handed over only by the buffer timeout or an idle task,
 * overtaking barriers passing buffers being read: every checkpoint a consistent cut, every record
 * exactly once at the sink, with a failure and recovery from channel state.
 */
class BufferedThreadedRuntimeTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    @ParameterizedTest(name = "{0}, buffers of {1}, timeout {2} ms, {3}")
    @CsvSource({"aligned, 8, 100, REFERENCES", "unaligned, 8, 100, REFERENCES", "unaligned, 3, 0, REFERENCES",
        "alternating, 8, 1, REFERENCES", "at-least-once, 5, 100, REFERENCES",
        "aligned, 8, 100, SERIALIZED", "unaligned, 3, 0, SERIALIZED", "alternating, 8, 1, SERIALIZED"})
    void demoWithBuffersRecoversExactlyOnce(String modeName, int bufferSize, long timeoutMs, BufferEncoding encoding) {
        BarrierMode mode = modeName.equals("alternating") ? BarrierHandlers.alternating(0) : BarrierHandlers.byName(modeName);
        int records = 400;
        ThreadedRuntime runtime = new ThreadedRuntime(ThreadedRuntimeTest.demo(records, 10_000, 32), mode,
                RunOptions.builder()
                        .checkpointInterval(2 * MS)
                        .failAfterCheckpoint(2)
                        .bufferSize(bufferSize)
                        .bufferTimeout(timeoutMs * MS)
                        .bufferEncoding(encoding)
                        .build());
        assertEquals(bufferSize, runtime.channel("s1#0->count#0").bufferSize());
        RunResult r = runtime.run();
        assertTrue(r.holds(), r.violations().toString());
        assertEquals(1, r.failures());
        assertTrue(r.checkpoints().size() >= 2, "checkpoints: " + r.checkpoints().size());
        List<RecordId> received = ((RecordingSink) runtime.operatorTask("sink#0").operator()).received()
                .stream().map(Record::id).toList();
        if (mode.deliveryGuarantee() == DeliveryGuarantee.EXACTLY_ONCE) {
            assertEquals(2 * records, received.size(), "every record exactly once at the sink");
            assertEquals(2 * records, received.stream().distinct().count());
        } else {
            assertEquals(2 * records, received.stream().distinct().count(), "every record at least once");
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"aligned", "unaligned"})
    void aFewRecordsInLargeBuffersStillArriveThroughTheIdleFlush(String modeName) {
        // 5 records per source, buffers of 64 and a buffer timeout of ten minutes: only a task with
        // nothing else to do hands its part-full buffers over; the run must still end.
        ThreadedRuntime runtime = new ThreadedRuntime(ThreadedRuntimeTest.demo(5, 0, 256), BarrierHandlers.byName(modeName),
                RunOptions.builder()
                        .checkpointInterval(MS)
                        .bufferSize(64)
                        .bufferTimeout(TimeUnit.MINUTES.toNanos(10))
                        .build());
        RunResult r = runtime.run();
        assertTrue(r.holds(), r.violations().toString());
        assertEquals(10, ((RecordingSink) runtime.operatorTask("sink#0").operator()).received().size());
    }

    @ParameterizedTest(name = "capacity {0}, buffer size {1}: {2} buffers of {3}")
    @CsvSource({"64, 0, 4, 16", "1000, 0, 4, 250", "2, 0, 2, 1", "10, 3, 3, 3", "4, 8, 1, 4"})
    void theDefaultBufferIsAQuarterOfTheCapacity(int capacity, int bufferSize, int buffers, int size) {
        ThreadedRuntime runtime = new ThreadedRuntime(ThreadedRuntimeTest.demo(1, 0, capacity), BarrierHandlers.aligned(),
                RunOptions.builder().bufferSize(bufferSize).build());
        dev.consistentcut.channel.Channel c = runtime.channel("s1#0->count#0");
        assertEquals(buffers, c.bufferCapacity());
        assertEquals(size, c.bufferSize());
    }
}
