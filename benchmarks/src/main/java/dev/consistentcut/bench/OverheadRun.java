package dev.consistentcut.bench;

import dev.consistentcut.bench.engine.ReferenceBenchmark;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs the checkpoint-overhead A/B of one cell ({@link OverheadAB}) on the reference engine: the
 * job without backpressure, without checkpoints and with them, in pairs whose order alternates,
 * at least {@code minPairs} and, while the cell is undecided, more up to {@code maxPairs}. Not
 * thread-safe.
 *
 * @param engine the engine measured
 * @param warmup each run's time before its window
 * @param window each run's measurement window
 * @param minPairs pairs always run
 * @param maxPairs the most pairs run while undecided
 */
public record OverheadRun(ReferenceBenchmark engine, Duration warmup, Duration window, int minPairs, int maxPairs) {

    /** The full run's warm-up before each A/B window. */
    public static final Duration FULL_WARMUP = Duration.ofSeconds(1);
    /** The full run's A/B window: long enough that a window's CPU per record does not follow the JIT and the collector. */
    public static final Duration FULL_WINDOW = Duration.ofSeconds(3);

    /** The analysed pairs of cell ({@code skew}, {@code mode}); {@code seed} seeds its bootstrap. */
    public OverheadAB.Result cell(boolean skew, Mode mode, long seed, Progress progress) throws Exception {
        List<OverheadAB.Pair> pairs = new ArrayList<>();
        String cell = (skew ? "skew" : "even") + " " + mode.label();
        for (int i = 0; OverheadAB.wantsAnotherPair(pairs, minPairs, maxPairs, seed); i++) {
            boolean onFirst = i % 2 == 1;
            double[] rate = new double[2]; // [off, on]
            double[] cpu = new double[2]; // CPU microseconds per record [off, on]
            for (int k = 0; k < 2; k++) {
                boolean on = onFirst == (k == 0);
                Scenario s = new Scenario(Backpressure.NONE, skew, on ? mode : Mode.NONE);
                progress.step(String.format("A/B %s pair %d of %d%s: %s", cell.replace(' ', '/'), i + 1, Math.max(i + 1, minPairs),
                        i >= minPairs ? " (undecided: more pairs, at most " + maxPairs + ")" : "",
                        on ? "checkpoints on" : "off"));
                ScenarioRun run = engine.run(s, warmup, window, progress);
                rate[on ? 1 : 0] = run.throughput();
                cpu[on ? 1 : 0] = run.cpuMicrosPerRecord();
            }
            pairs.add(new OverheadAB.Pair(rate[0], rate[1], onFirst, cpu[0], cpu[1]));
        }
        return OverheadAB.analyse(cell, pairs, seed);
    }
}
