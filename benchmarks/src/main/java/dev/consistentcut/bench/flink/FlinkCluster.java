package dev.consistentcut.bench.flink;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.MemorySize;
import org.apache.flink.configuration.RestOptions;
import org.apache.flink.configuration.TaskManagerOptions;
import org.apache.flink.configuration.WebOptions;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;

/**
 * A local Flink MiniCluster with its REST endpoint, configured as the issue asks: one task
 * manager with two slots (the job's largest parallelism is 2), 8 KB network buffers, a checkpoint
 * history long enough for a whole scenario, and filesystem checkpoint storage in a temporary
 * directory. One cluster serves every Flink scenario of a run. Not thread-safe.
 */
public final class FlinkCluster implements AutoCloseable {

    /** Checkpoints kept in the REST history: above the longest scenario's count at 10 per second. */
    public static final int CHECKPOINT_HISTORY = 2_000;

    private final MiniCluster cluster;
    private final URI restAddress;
    private final Path checkpointDir;

    private FlinkCluster(MiniCluster cluster, URI restAddress, Path checkpointDir) {
        this.cluster = cluster;
        this.restAddress = restAddress;
        this.checkpointDir = checkpointDir;
    }

    public static FlinkCluster start(Path checkpointDir) throws Exception {
        Configuration conf = new Configuration();
        conf.set(TaskManagerOptions.NUM_TASK_SLOTS, 2);
        conf.set(TaskManagerOptions.MEMORY_SEGMENT_SIZE, MemorySize.parse("8kb"));
        conf.set(RestOptions.BIND_PORT, "0");
        conf.set(WebOptions.CHECKPOINTS_HISTORY_SIZE, CHECKPOINT_HISTORY);
        // Checkpoint statistics are cached for web.refresh-interval (3 s) by default; the benchmark
        // reads them once, right after each measurement window, and needs them current.
        conf.set(RestOptions.CACHE_CHECKPOINT_STATISTICS_TIMEOUT, Duration.ofMillis(10));
        conf.set(CheckpointingOptions.CHECKPOINT_STORAGE, "filesystem");
        conf.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, checkpointDir.toUri().toString());
        MiniCluster cluster = new MiniCluster(new MiniClusterConfiguration.Builder()
                .setConfiguration(conf)
                .setNumTaskManagers(1)
                .setNumSlotsPerTaskManager(2)
                .build());
        cluster.start();
        URI rest = cluster.getRestAddress().get();
        return new FlinkCluster(cluster, rest, checkpointDir);
    }

    public MiniCluster cluster() {
        return cluster;
    }

    public URI restAddress() {
        return restAddress;
    }

    public Path checkpointDir() {
        return checkpointDir;
    }

    @Override
    public void close() throws Exception {
        cluster.close();
    }
}
