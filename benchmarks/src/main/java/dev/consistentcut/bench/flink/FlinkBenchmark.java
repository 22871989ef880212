package dev.consistentcut.bench.flink;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.consistentcut.bench.CheckpointSample;
import dev.consistentcut.bench.Machine;
import dev.consistentcut.bench.Progress;
import dev.consistentcut.bench.Scenario;
import dev.consistentcut.bench.ScenarioRun;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;

/**
 * Runs one scenario of the demo job on the {@link FlinkCluster}: submit, warm up, measure the
 * sink's throughput over a window, read the window's checkpoints from the REST API
 * ({@code /jobs/<id>/checkpoints}, and per checkpoint its subtasks' start delay and alignment),
 * cancel. Not thread-safe.
 */
public final class FlinkBenchmark {

    /**
     * Checkpoints per scenario whose per-subtask details (start delay, alignment) are fetched:
     * four REST calls each, so a fast scenario's hundred checkpoints are sampled evenly rather
     * than all read while the next scenario waits.
     */
    static final int MAX_DETAILED_CHECKPOINTS = 40;

    private final FlinkCluster cluster;
    private final boolean objectReuse;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final ObjectMapper json = new ObjectMapper();

    /** Runs of the job with object reuse off, Flink's default. */
    public FlinkBenchmark(FlinkCluster cluster) {
        this(cluster, false);
    }

    /** Runs of the job with Flink's object reuse on or off; their results are named by {@link #engine()}. */
    public FlinkBenchmark(FlinkCluster cluster, boolean objectReuse) {
        this.cluster = cluster;
        this.objectReuse = objectReuse;
    }

    /** {@link ScenarioRun#FLINK} or, with object reuse, {@link ScenarioRun#FLINK_REUSE}. */
    public String engine() {
        return objectReuse ? ScenarioRun.FLINK_REUSE : ScenarioRun.FLINK;
    }

    public ScenarioRun run(Scenario scenario, Duration warmup, Duration window, Progress progress) throws Exception {
        PacedCountingSink.reset();
        JobID job = cluster.cluster().submitJob(FlinkJob.build(scenario, cluster.checkpointDir(), objectReuse)).get().getJobID();
        try {
            awaitFirstRecord(job, progress);
            sleep(warmup, progress, "warm-up");
            long wallStart = System.currentTimeMillis();
            long start = System.nanoTime();
            double cpuBefore = Machine.processCpuSeconds();
            double compilerBefore = Machine.compilerCpuSeconds();
            long before = PacedCountingSink.RECEIVED.get();
            sleep(window, progress, "measuring");
            long records = PacedCountingSink.RECEIVED.get() - before;
            double cpu = Machine.processCpuSeconds() - cpuBefore;
            double compiler = Machine.compilerCpuSeconds() - compilerBefore;
            double seconds = (System.nanoTime() - start) / 1e9;
            long wallEnd = System.currentTimeMillis();
            progress.detail("reading checkpoint statistics");
            List<CheckpointSample> samples = new ArrayList<>();
            int failed = readCheckpoints(job, wallStart, wallEnd, samples);
            return new ScenarioRun(engine(), scenario, seconds, records, samples, failed, cpu, compiler);
        } finally {
            cancel(job);
        }
    }

    private void awaitFirstRecord(JobID job, Progress progress) throws Exception {
        progress.detail("starting job");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (PacedCountingSink.RECEIVED.get() == 0) {
            JobStatus status = cluster.cluster().getJobStatus(job).get();
            if (status.isGloballyTerminalState()) {
                throw new IllegalStateException("Flink job " + job + " ended before its first record: " + status);
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Flink job " + job + " delivered no record within 60 s (status " + status + ")");
            }
            Thread.sleep(20);
        }
    }

    private static void sleep(Duration d, Progress progress, String what) throws InterruptedException {
        long end = System.nanoTime() + d.toNanos();
        long left;
        while ((left = end - System.nanoTime()) > 0) {
            progress.detail(String.format("%s, %d s left", what, TimeUnit.NANOSECONDS.toSeconds(left + 999_999_999)));
            Thread.sleep(Math.min(1000, TimeUnit.NANOSECONDS.toMillis(left) + 1));
        }
    }

    /**
     * Adds to {@code out} every checkpoint triggered at or after {@code from} and acknowledged by
     * {@code to} (wall-clock milliseconds, the clock Flink stamps with); returns how many
     * triggered in the window failed.
     */
    private int readCheckpoints(JobID job, long from, long to, List<CheckpointSample> out) throws IOException, InterruptedException {
        Window window = window(get("/jobs/" + job + "/checkpoints"), from, to);
        List<JsonNode> completed = window.completed();
        int stride = Math.max(1, (completed.size() + MAX_DETAILED_CHECKPOINTS - 1) / MAX_DETAILED_CHECKPOINTS);
        for (int i = 0; i < completed.size(); i++) {
            out.add(sample(job, completed.get(i), i % stride == 0));
        }
        return window.failed();
    }

    /** The checkpoints of a measurement window: completed ones in id order, and how many failed. */
    record Window(List<JsonNode> completed, int failed) {
    }

    /**
     * From the answer of {@code /jobs/<id>/checkpoints}: every checkpoint triggered at or after
     * {@code from} and completed by {@code to}, and the number triggered in the window that failed.
     */
    static Window window(JsonNode checkpoints, long from, long to) {
        if (!checkpoints.path("history").isArray()) {
            throw new IllegalArgumentException("Flink's checkpoint statistics have no 'history' array: " + checkpoints);
        }
        List<JsonNode> completed = new ArrayList<>();
        int failed = 0;
        for (JsonNode c : checkpoints.path("history")) {
            long trigger = c.path("trigger_timestamp").asLong();
            if (trigger < from || trigger > to) {
                continue;
            }
            String status = c.path("status").asText();
            if (status.equals("FAILED")) {
                failed++;
            } else if (status.equals("COMPLETED") && c.path("latest_ack_timestamp").asLong() <= to) {
                completed.add(c);
            }
        }
        completed.sort((a, b) -> Long.compare(a.path("id").asLong(), b.path("id").asLong()));
        return new Window(completed, failed);
    }

    /** One checkpoint of the history; with {@code detailed}, its subtasks' start delay and alignment too. */
    private CheckpointSample sample(JobID job, JsonNode c, boolean detailed) throws IOException, InterruptedException {
        long id = c.path("id").asLong();
        double startDelay = detailed ? 0 : Double.NaN;
        double alignment = detailed ? 0 : Double.NaN;
        Iterator<String> vertices = c.path("tasks").fieldNames();
        if (detailed && !vertices.hasNext()) {
            vertices = get("/jobs/" + job + "/checkpoints/details/" + id).path("tasks").fieldNames();
        }
        while (detailed && vertices.hasNext()) {
            JsonNode subtasks = get("/jobs/" + job + "/checkpoints/details/" + id + "/subtasks/" + vertices.next());
            for (JsonNode s : subtasks.path("subtasks")) {
                startDelay = Math.max(startDelay, s.path("start_delay").asDouble());
                alignment = Math.max(alignment, s.path("alignment").path("duration").asDouble());
            }
        }
        return new CheckpointSample(
                id,
                c.path("end_to_end_duration").asDouble(),
                startDelay,
                alignment,
                -1,
                c.path("persisted_data").asLong(),
                c.path("state_size").asLong(),
                -1);
    }

    private JsonNode get(String path) throws IOException, InterruptedException {
        URI uri = cluster.restAddress().resolve(path);
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("Flink REST " + uri + " answered " + response.statusCode() + ": " + response.body());
        }
        return json.readTree(response.body());
    }

    private void cancel(JobID job) throws Exception {
        cluster.cluster().cancelJob(job).get();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!cluster.cluster().getJobStatus(job).get().isGloballyTerminalState()) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Flink job " + job + " did not stop within 60 s of its cancellation");
            }
            Thread.sleep(20);
        }
    }
}
