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

    /** Pairs run before a cell's counted ones and not counted: their windows also pay for compiling the cell's code. */
    public static final int WARMUP_PAIRS = 1;

    /** The full run's warm-up before each A/B window. */
    public static final Duration FULL_WARMUP = Duration.ofSeconds(1);
    /** The full run's A/B window: long enough that a window's CPU per record does not follow the JIT and the collector. */
    public static final Duration FULL_WINDOW = Duration.ofSeconds(3);

    /** The analysed pairs of cell ({@code skew}, {@code mode}); {@code seed} seeds its bootstrap. */
    public OverheadAB.Result cell(boolean skew, Mode mode, long seed, Progress progress) throws Exception {
        List<OverheadAB.Pair> pairs = new ArrayList<>();
        String cell = (skew ? "skew" : "even") + " " + mode.label();
        for (int w = 0; w < WARMUP_PAIRS; w++) { // as JMH's warm-up iterations
            pair(skew, mode, w % 2 == 1, cell.replace(' ', '/') + " warm-up pair (not counted)", progress);
        }
        for (int i = 0; OverheadAB.wantsAnotherPair(pairs, minPairs, maxPairs, seed); i++) {
            pairs.add(pair(skew, mode, i % 2 == 1, String.format("%s pair %d of %d%s", cell.replace(' ', '/'), i + 1,
                    Math.max(i + 1, minPairs), i >= minPairs ? " (undecided: more pairs, at most " + maxPairs + ")" : ""),
                    progress));
        }
        return OverheadAB.analyse(cell, pairs, seed);
    }

    /** One pair of runs ({@link #pairOf}), the one with checkpoints first if {@code onFirst}. */
    private OverheadAB.Pair pair(boolean skew, Mode mode, boolean onFirst, String label, Progress progress) throws Exception {
        ScenarioRun[] runs = new ScenarioRun[2]; // [off, on]
        for (int k = 0; k < 2; k++) {
            boolean on = onFirst == (k == 0);
            Scenario s = new Scenario(Backpressure.NONE, skew, on ? mode : Mode.NONE);
            progress.step("A/B " + label + ": " + (on ? "checkpoints on" : "off"));
            runs[on ? 1 : 0] = engine.run(s, warmup, window, progress);
        }
        return pairOf(runs[0], runs[1], onFirst);
    }

    /**
     * The pair of a run without checkpoints and one with them: throughputs, and CPU per record
     * without the JIT compiler's share, which the pair carries apart; where either run's compiler
     * CPU is unknown, the whole JVM's CPU per record for both.
     */
    static OverheadAB.Pair pairOf(ScenarioRun off, ScenarioRun on, boolean onFirst) {
        boolean split = !Double.isNaN(off.compilerMicrosPerRecord()) && !Double.isNaN(on.compilerMicrosPerRecord());
        return split
                ? new OverheadAB.Pair(off.throughput(), on.throughput(), onFirst, off.cpuMicrosPerRecordWithoutCompiler(),
                        on.cpuMicrosPerRecordWithoutCompiler(), off.compilerMicrosPerRecord(), on.compilerMicrosPerRecord())
                : new OverheadAB.Pair(off.throughput(), on.throughput(), onFirst, off.cpuMicrosPerRecord(),
                        on.cpuMicrosPerRecord());
    }
}
