package dev.consistentcut.bench.flink;

import dev.consistentcut.bench.JobShape;
import dev.consistentcut.bench.Scenario;
import java.nio.file.Path;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.api.java.tuple.Tuple4;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.streaming.api.graph.StreamGraph;

/**
 * The demo job in Flink: two unbounded generator sources (the second throttled when the scenario
 * has skew) into a keyed count with parallelism 2, then the paced sink with parallelism 1. The
 * sink's parallelism differs from the count's, so Flink cannot chain them: as in the reference
 * engine, every hop is a channel.
 */
public final class FlinkJob {

    private FlinkJob() {
    }

    /** The job's graph, ready to submit to a MiniCluster; object reuse off, Flink's default. */
    public static JobGraph build(Scenario scenario, Path checkpointDir) {
        return build(scenario, checkpointDir, false);
    }

    /**
     * The job's graph; with {@code objectReuse}, Flink's {@code pipeline.object-reuse}, which
     * spares the copies between the functions of one operator chain (this job chains none of its
     * tasks: its records are serialized between tasks either way).
     */
    public static JobGraph build(Scenario scenario, Path checkpointDir, boolean objectReuse) {
        Configuration conf = new Configuration();
        conf.set(PipelineOptions.OBJECT_REUSE, objectReuse);
        if (scenario.mode().checkpoints()) {
            conf.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, JobShape.CHECKPOINT_INTERVAL);
            dev.consistentcut.bench.Mode mode = scenario.mode();
            conf.set(CheckpointingOptions.ENABLE_UNALIGNED, mode != dev.consistentcut.bench.Mode.ALIGNED);
            if (mode == dev.consistentcut.bench.Mode.ALTERNATING) {
                // Aligned first, unaligned once the alignment takes longer than this (FLIP-76).
                conf.set(CheckpointingOptions.ALIGNED_CHECKPOINT_TIMEOUT, JobShape.ALIGNED_TIMEOUT);
            }
            conf.set(CheckpointingOptions.MAX_CONCURRENT_CHECKPOINTS, 1);
            // The in-memory storage refuses checkpoints over 5 MB; unaligned ones carry the backlog.
            conf.set(CheckpointingOptions.CHECKPOINT_STORAGE, "filesystem");
            conf.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, checkpointDir.toUri().toString());
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);

        DataStream<Tuple4<Integer, Long, Long, Long>> first = source(env, 0, RateLimiterStrategy.noOp());
        DataStream<Tuple4<Integer, Long, Long, Long>> second = source(env, 1,
                scenario.skew() ? RateLimiterStrategy.perSecond(JobShape.THROTTLED_RECORDS_PER_SECOND)
                                : RateLimiterStrategy.noOp());
        first.union(second)
                .keyBy(r -> r.f2, org.apache.flink.api.common.typeinfo.Types.LONG)
                .process(new KeyedCountFunction(), FlinkRecord.TYPE)
                .name("count")
                .setParallelism(JobShape.COUNT_PARALLELISM)
                .sinkTo(new PacedCountingSink(scenario.backpressure().sinkNanosPerRecord()))
                .name("sink")
                .setParallelism(1);
        StreamGraph graph = env.getStreamGraph();
        graph.setJobName("consistent-cut " + scenario.name());
        return graph.getJobGraph();
    }

    private static DataStream<Tuple4<Integer, Long, Long, Long>> source(
            StreamExecutionEnvironment env, int index, RateLimiterStrategy<?> rate) {
        GeneratorFunction<Long, Tuple4<Integer, Long, Long, Long>> generator =
                offset -> Tuple4.of(index, offset, JobShape.keyAt(offset), 1L);
        @SuppressWarnings({"unchecked", "rawtypes"})
        DataGeneratorSource<Tuple4<Integer, Long, Long, Long>> source =
                new DataGeneratorSource<>(generator, Long.MAX_VALUE, (RateLimiterStrategy) rate, FlinkRecord.TYPE);
        return env.fromSource(source, WatermarkStrategy.noWatermarks(), "s" + (index + 1)).setParallelism(1);
    }
}
