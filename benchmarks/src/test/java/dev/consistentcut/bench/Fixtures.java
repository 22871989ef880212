package dev.consistentcut.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Hand-made runs for the report and target tests. */
final class Fixtures {

    static final Calibration CALIBRATION = new Calibration(
            100_000_000,
            Map.of(Backpressure.NONE, 0.1, Backpressure.LIGHT, 0.2, Backpressure.HEAVY, 0.6));

    private Fixtures() {
    }

    /**
     * A 10-second run with {@code n} identical checkpoints (none if the mode has none), its CPU
     * 5 us per record on the reference engine and 10 us on Flink.
     */
    static ScenarioRun run(String engine, Backpressure b, boolean skew, Mode m, double throughput,
                           double durationMs, long persistedBytes, long backlog, int n) {
        List<CheckpointSample> c = new ArrayList<>();
        for (int i = 0; m.checkpoints() && i < n; i++) {
            c.add(new CheckpointSample(i + 1, durationMs, durationMs / 2, 0, engine.equals(ScenarioRun.FLINK) ? -1 : persistedBytes / 30,
                    persistedBytes, persistedBytes + 20_000, backlog));
        }
        long records = Math.round(throughput * 10);
        double cpuMicrosPerRecord = engine.equals(ScenarioRun.FLINK) ? 10 : 5;
        return new ScenarioRun(engine, new Scenario(b, skew, m), 10, records, c, 0, records * cpuMicrosPerRecord / 1e6);
    }

    /**
     * A reference-engine grid (skew on) that meets every target: checkpoints cost 2% throughput,
     * heavy aligned 4 s vs unaligned 5 ms, backlog 4,000 records at 10,000 and 1,000 records/s
     * (0.4 s and 4 s: tenfold), aligned durations at their prediction, unaligned 4 and 5 ms.
     */
    static List<ScenarioRun> goodGrid() {
        String r = ScenarioRun.REFERENCE;
        String f = ScenarioRun.FLINK;
        return new ArrayList<>(List.of(
                run(r, Backpressure.NONE, true, Mode.NONE, 1_000_000, 0, 0, -1, 0),
                run(r, Backpressure.NONE, true, Mode.ALIGNED, 980_000, 3, 0, 100, 50),
                run(r, Backpressure.NONE, true, Mode.UNALIGNED, 985_000, 3, 1_000, 100, 50),
                run(r, Backpressure.LIGHT, true, Mode.ALIGNED, 10_000, 400, 0, 4_000, 20),
                run(r, Backpressure.LIGHT, true, Mode.UNALIGNED, 10_000, 4, 120_000, 4_000, 50),
                run(r, Backpressure.HEAVY, true, Mode.ALIGNED, 1_000, 4_000, 0, 4_000, 5),
                run(r, Backpressure.HEAVY, true, Mode.UNALIGNED, 1_000, 5, 120_000, 4_000, 50),
                // Alternating: heavy, 20 ms timeout + 1.2 ms store + 0.6 ms travel = 21.8 ms predicted;
                // without backpressure or skew it never persists anything.
                run(r, Backpressure.HEAVY, true, Mode.ALTERNATING, 1_000, 22, 120_000, 4_000, 50),
                run(r, Backpressure.NONE, false, Mode.ALTERNATING, 980_000, 3, 0, 100, 50),
                run(f, Backpressure.NONE, true, Mode.NONE, 900_000, 0, 0, -1, 0),
                run(f, Backpressure.HEAVY, true, Mode.ALIGNED, 1_000, 6_000, 0, -1, 4),
                run(f, Backpressure.HEAVY, true, Mode.UNALIGNED, 1_000, 20, 192_000, -1, 50)));
    }

    static List<Summary> summaries(List<ScenarioRun> runs) {
        return runs.stream().map(x -> Summary.of(x, CALIBRATION, runs)).toList();
    }
}
