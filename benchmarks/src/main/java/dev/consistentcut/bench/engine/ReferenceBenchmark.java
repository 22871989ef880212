package dev.consistentcut.bench.engine;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.bench.CheckpointSample;
import dev.consistentcut.bench.Machine;
import dev.consistentcut.bench.JobParams;
import dev.consistentcut.bench.JobShape;
import dev.consistentcut.bench.Mode;
import dev.consistentcut.bench.Progress;
import dev.consistentcut.bench.Scenario;
import dev.consistentcut.bench.ScenarioRun;
import dev.consistentcut.channel.BufferEncoding;
import dev.consistentcut.channel.Channel;
import dev.consistentcut.checkpoint.CheckpointStats;
import dev.consistentcut.checkpoint.CheckpointStore;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.PhysicalGraph;
import dev.consistentcut.runtime.RunOptions;
import dev.consistentcut.runtime.RunResult;
import dev.consistentcut.runtime.ThreadedRuntime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Runs one scenario of the demo job on the reference engine's {@link ThreadedRuntime}: start,
 * warm up, measure the sink's throughput over a window, then end the sources
 * ({@link BenchmarkSourceLog#close()}) and let the run drain. The checkpoints come from the
 * runtime's {@code onCheckpoint} callback with their {@link CheckpointStats}; each one's backlog at
 * its trigger from a {@link QueueSampler}.
 *
 * <p>A checkpoint's duration here runs from its trigger to the return of the store's write, when
 * it is durable and a recovery can use it (the callback runs on the coordinator thread right
 * after {@code completeCheckpoint}). The engine's own {@link CheckpointStats#duration()} stops at
 * the last acknowledgement, before the write, because the stats are part of what is written;
 * Flink's end-to-end duration includes the upload of every task's state, so this is the
 * comparable figure. The processed-records ledgers are off (they grow with
 * every record and would be copied into every snapshot), so the run checks no cut invariant;
 * {@code AlignedNoChannelStateInv} is still checked, and a violation fails the scenario.
 * Not thread-safe.
 */
public final class ReferenceBenchmark {

    /**
     * Records per network buffer: 0, the engine's default (a quarter of the channel's
     * 1,000 records: 250, about Flink's 8 KB buffers of this job's 32-byte records); set
     * {@code -Dbench.bufferSize=1} to measure the per-record channel. A job whose sizes name a
     * buffer size (the scaling sweep's) keeps its own.
     */
    static final int BUFFER_SIZE = Integer.getInteger("bench.bufferSize", 0);

    /** Where the job's checkpoint interval is "never": no trigger in a scenario without checkpoints. */
    private static final long NEVER = TimeUnit.DAYS.toNanos(365);

    private final Supplier<CheckpointStore> stores;
    private final BufferEncoding encoding;

    /**
     * Runs whose channels serialize the records into their buffers, as Flink's network stack does
     * between unchained tasks: the engine compared with Flink.
     *
     * @param stores makes the checkpoint store of each scenario (a fresh one each time)
     */
    public ReferenceBenchmark(Supplier<CheckpointStore> stores) {
        this(stores, BufferEncoding.SERIALIZED);
    }

    /**
     * @param stores makes the checkpoint store of each scenario (a fresh one each time)
     * @param encoding how the channels' buffers carry records; results are named by {@link #engine()}
     */
    public ReferenceBenchmark(Supplier<CheckpointStore> stores, BufferEncoding encoding) {
        this.stores = stores;
        this.encoding = encoding;
    }

    /** {@link ScenarioRun#REFERENCE} (serializing) or {@link ScenarioRun#REFERENCE_OBJECTS}. */
    public String engine() {
        return encoding == BufferEncoding.SERIALIZED ? ScenarioRun.REFERENCE : ScenarioRun.REFERENCE_OBJECTS;
    }

    public ScenarioRun run(Scenario scenario, Duration warmup, Duration window, Progress progress) throws Exception {
        return run(scenario, JobParams.DEMO, warmup, window, progress);
    }

    /** A run of the demo job with the sizes of {@code params} (the scaling sweep). */
    public ScenarioRun run(Scenario scenario, JobParams params, Duration warmup, Duration window, Progress progress)
            throws Exception {
        BenchmarkSourceLog first = new BenchmarkSourceLog(0, params.keys());
        BenchmarkSourceLog second = new BenchmarkSourceLog(scenario.skew() ? JobShape.THROTTLED_RECORDS_PER_SECOND : 0,
                params.keys());
        CountingSink sink = new CountingSink(scenario.backpressure().sinkNanosPerRecord());
        JobGraph job = DemoJob.graph(first, second, sink, params);
        BarrierMode mode = switch (scenario.mode()) {
            case UNALIGNED -> BarrierHandlers.unaligned();
            case ALTERNATING -> BarrierHandlers.alternating(JobShape.ALIGNED_TIMEOUT.toMillis());
            default -> BarrierHandlers.aligned();
        };
        ConcurrentLinkedQueue<Durable> completed = new ConcurrentLinkedQueue<>();
        RunOptions options = RunOptions.builder()
                .checkpointInterval(scenario.mode().checkpoints() ? JobShape.CHECKPOINT_INTERVAL.toNanos() : NEVER)
                .maxConcurrentAligned(1)
                .trackProcessed(false)
                .bufferSize(params.bufferSize() == 0 ? BUFFER_SIZE : params.bufferSize())
                .bufferEncoding(encoding)
                .store(stores)
                .onCheckpoint(c -> completed.add(Durable.of(c, System.nanoTime())))
                .build();
        ThreadedRuntime runtime = new ThreadedRuntime(job, mode, options);
        // The sources' ids in the physical graph: node name and instance 0.
        first.interruptWaitWhen(() -> runtime.coordinator().nextBarrierFor(PhysicalGraph.taskId("s1", 0)).isPresent());
        second.interruptWaitWhen(() -> runtime.coordinator().nextBarrierFor(PhysicalGraph.taskId("s2", 0)).isPresent());
        first.open(); // only now: see BenchmarkSourceLog
        second.open();
        List<Channel> channels = new ArrayList<>();
        for (PhysicalGraph.ChannelSpec c : PhysicalGraph.of(job).channels()) {
            channels.add(runtime.channel(c.id()));
        }
        long totalNanos = warmup.plus(window).toNanos();
        QueueSampler sampler = new QueueSampler(channels, (int) (totalNanos / QueueSampler.PERIOD_NANOS) + 1_000);
        AtomicReference<RunResult> result = new AtomicReference<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread runner = new Thread(() -> {
            try {
                result.set(runtime.run());
            } catch (Throwable t) {
                failure.set(t);
            }
        }, "reference-run");
        runner.setDaemon(true);
        runner.start();
        sampler.start();
        long windowStart;
        long windowEnd;
        long records;
        double cpu;
        double compiler;
        try {
            awaitFirstRecord(sink, runner, failure);
            sleep(warmup, progress, "warm-up", failure);
            windowStart = System.nanoTime();
            double cpuBefore = Machine.processCpuSeconds();
            double compilerBefore = Machine.compilerCpuSeconds();
            long before = sink.received();
            sleep(window, progress, "measuring", failure);
            records = sink.received() - before;
            cpu = Machine.processCpuSeconds() - cpuBefore;
            compiler = Machine.compilerCpuSeconds() - compilerBefore;
            windowEnd = System.nanoTime();
        } finally {
            progress.detail("draining");
            first.close();
            second.close();
            sink.stopPacing();
            runner.join(TimeUnit.SECONDS.toMillis(120));
            sampler.stop();
        }
        if (runner.isAlive()) {
            throw new IllegalStateException("reference engine run of " + scenario + " did not drain within 120 s of closing its sources");
        }
        if (failure.get() != null) {
            throw new IllegalStateException("reference engine run of " + scenario + " failed: " + failure.get(), failure.get());
        }
        RunResult r = result.get();
        if (!r.violations().isEmpty()) {
            throw new IllegalStateException("reference engine run of " + scenario + " violated an invariant: " + r.violations().get(0));
        }
        List<CheckpointSample> samples = new ArrayList<>();
        for (Durable d : completed) {
            if (d.triggerTime() >= windowStart && d.storedAt() <= windowEnd) {
                samples.add(d.sample(sampler.at(d.triggerTime())));
            }
        }
        return new ScenarioRun(engine(), scenario, (windowEnd - windowStart) / 1e9, records, samples,
                r.abortedCheckpoints(), cpu, compiler);
    }

    /**
     * What a run reports of one completed checkpoint, and when the store had written it
     * (nanoTime). Only these figures are kept, not the checkpoint: holding every checkpoint of a
     * run, with its channel state's records, would keep megabytes alive that the engine itself
     * lets go, and the collector's copying of them would be charged to the checkpoints.
     */
    record Durable(long id, long triggerTime, long storedAt, long maxStartDelay, long maxAlignment,
                   long persistedRecords, long persistedBytes, long stateBytes) {

        static Durable of(CompletedCheckpoint c, long storedAt) {
            CheckpointStats s = c.stats();
            long maxStartDelay = s.startDelay().values().stream().mapToLong(Long::longValue).max().orElse(0);
            return new Durable(c.id(), s.triggerTime(), storedAt, maxStartDelay, s.maxAlignment(),
                    s.persistedRecords(), s.persistedBytes(), s.stateBytes());
        }

        /** This checkpoint as a sample, with {@code backlog} records queued when it was triggered. */
        CheckpointSample sample(long backlog) {
            return new CheckpointSample(id, (storedAt - triggerTime) / 1e6, maxStartDelay / 1e6, maxAlignment / 1e6,
                    persistedRecords, persistedBytes, stateBytes + persistedBytes, backlog);
        }
    }

    private static void awaitFirstRecord(CountingSink sink, Thread runner, AtomicReference<Throwable> failure)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (sink.received() == 0) {
            if (failure.get() != null || !runner.isAlive()) {
                return; // reported by the caller
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the reference engine delivered no record within 60 s");
            }
            Thread.sleep(5);
        }
    }

    private static void sleep(Duration d, Progress progress, String what, AtomicReference<Throwable> failure)
            throws InterruptedException {
        long end = System.nanoTime() + d.toNanos();
        long left;
        while ((left = end - System.nanoTime()) > 0 && failure.get() == null) {
            progress.detail(String.format("%s, %d s left", what, TimeUnit.NANOSECONDS.toSeconds(left + 999_999_999)));
            Thread.sleep(Math.min(1000, TimeUnit.NANOSECONDS.toMillis(left) + 1));
        }
    }
}
