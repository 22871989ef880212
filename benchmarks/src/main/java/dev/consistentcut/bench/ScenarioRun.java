package dev.consistentcut.bench;

import java.util.List;

/**
 * What one engine did in one scenario's measurement window.
 *
 * @param engine "reference", "reference-objects", "flink" or "flink-reuse"
 * @param scenario the grid cell
 * @param seconds the measurement window (after warm-up)
 * @param records records the sink received in the window
 * @param checkpoints the checkpoints triggered and completed inside the window (all of them:
 *     those not read in detail carry NaN start delay and alignment)
 * @param failedCheckpoints checkpoints triggered in the window that failed or were aborted
 * @param roundThroughputs the sink's records per second in each round the run was made of (one
 *     entry for a single window; see {@link #merge})
 * @param cpuSeconds CPU time of the benchmark's JVM in the window (every thread, the job's and the
 *     JIT's and collector's); NaN if unknown
 * @param compilerCpuSeconds the part of {@code cpuSeconds} the JIT compiler's threads took
 *     ({@link Machine#compilerCpuSeconds}); NaN if unknown
 */
public record ScenarioRun(
        String engine,
        Scenario scenario,
        double seconds,
        long records,
        List<CheckpointSample> checkpoints,
        int failedCheckpoints,
        List<Double> roundThroughputs,
        double cpuSeconds,
        double compilerCpuSeconds) {

    /** The reference engine with its channels serializing records, the engine compared with Flink. */
    public static final String REFERENCE = "reference";
    /**
     * The reference engine handing record objects between threads: the runs without backpressure
     * and without checkpoints only, beside the serializing engine.
     */
    public static final String REFERENCE_OBJECTS = "reference-objects";
    public static final String FLINK = "flink";
    /** Flink with object reuse on: the runs without backpressure and without checkpoints only. */
    public static final String FLINK_REUSE = "flink-reuse";

    public ScenarioRun {
        checkpoints = List.copyOf(checkpoints);
        roundThroughputs = List.copyOf(roundThroughputs);
    }

    /** A run of one window, its CPU time unknown. */
    public ScenarioRun(String engine, Scenario scenario, double seconds, long records,
                       List<CheckpointSample> checkpoints, int failedCheckpoints) {
        this(engine, scenario, seconds, records, checkpoints, failedCheckpoints, Double.NaN);
    }

    /** A run of one window that took {@code cpuSeconds} of CPU time. */
    public ScenarioRun(String engine, Scenario scenario, double seconds, long records,
                       List<CheckpointSample> checkpoints, int failedCheckpoints, double cpuSeconds) {
        this(engine, scenario, seconds, records, checkpoints, failedCheckpoints, cpuSeconds, Double.NaN);
    }

    /** A run of one window that took {@code cpuSeconds} of CPU time, {@code compilerCpuSeconds} of it the JIT compiler's. */
    public ScenarioRun(String engine, Scenario scenario, double seconds, long records,
                       List<CheckpointSample> checkpoints, int failedCheckpoints, double cpuSeconds,
                       double compilerCpuSeconds) {
        this(engine, scenario, seconds, records, checkpoints, failedCheckpoints,
                List.of(seconds > 0 ? records / seconds : 0.0), cpuSeconds, compilerCpuSeconds);
    }

    /**
     * Several rounds of one engine and scenario as one run: windows and records added up (so the
     * throughput is the pooled one), checkpoints and failures together, each round's throughput
     * kept for the spread.
     *
     * @throws IllegalArgumentException if the rounds are of different engines or scenarios, or none
     */
    public static ScenarioRun merge(List<ScenarioRun> rounds) {
        if (rounds.isEmpty()) {
            throw new IllegalArgumentException("no rounds to merge");
        }
        ScenarioRun first = rounds.get(0);
        double seconds = 0;
        long records = 0;
        int failed = 0;
        double cpu = 0;
        double compiler = 0;
        List<CheckpointSample> checkpoints = new java.util.ArrayList<>();
        List<Double> throughputs = new java.util.ArrayList<>();
        for (ScenarioRun r : rounds) {
            if (!r.engine().equals(first.engine()) || !r.scenario().equals(first.scenario())) {
                throw new IllegalArgumentException("cannot merge " + r.engine() + " " + r.scenario()
                        + " into " + first.engine() + " " + first.scenario());
            }
            seconds += r.seconds();
            records += r.records();
            failed += r.failedCheckpoints();
            cpu += r.cpuSeconds();
            compiler += r.compilerCpuSeconds();
            checkpoints.addAll(r.checkpoints());
            throughputs.addAll(r.roundThroughputs());
        }
        return new ScenarioRun(first.engine(), first.scenario(), seconds, records, checkpoints, failed, throughputs, cpu,
                compiler);
    }

    /** CPU microseconds per record through the sink (the whole JVM's CPU over the records); NaN if unknown. */
    public double cpuMicrosPerRecord() {
        return records > 0 ? cpuSeconds * 1e6 / records : Double.NaN;
    }

    /**
     * CPU microseconds per record through the sink without the JIT compiler's share: the CPU the
     * job itself costs once its code is compiled, which a short window otherwise mixes with the
     * one-time cost of compiling whatever code the window ran first; NaN if unknown.
     */
    public double cpuMicrosPerRecordWithoutCompiler() {
        return records > 0 ? (cpuSeconds - compilerCpuSeconds) * 1e6 / records : Double.NaN;
    }

    /** CPU microseconds per record the JIT compiler's threads took in the window; NaN if unknown. */
    public double compilerMicrosPerRecord() {
        return records > 0 ? compilerCpuSeconds * 1e6 / records : Double.NaN;
    }

    /** Records per second through the sink. */
    public double throughput() {
        return seconds > 0 ? records / seconds : 0;
    }
}
