package dev.consistentcut.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which scenarios a run measures and for how long. The full run covers the whole grid (3
 * backpressure levels x skew on/off x 3 modes) on both engines; the quick run only the skewed
 * half, with shorter windows, and JMH with one short fork.
 *
 * <p>Without backpressure the throughput is the figure that matters, and on a shared machine it
 * drifts with the other work from one minute to the next. So those cells run in rounds: the three
 * modes one after the other, both engines each, then again, and each cell's figures are pooled
 * over its rounds. Modes compared with each other are then measured at interleaved times.
 *
 * @param quick whether this is the quick plan
 * @param warmup time each run (each round) goes before its measurement window opens
 * @param windows the measurement window per backpressure level (per round without backpressure)
 * @param roundsWithoutBackpressure rounds of the cells without backpressure
 * @param scenarios the grid cells, in run order
 */
public record RunPlan(boolean quick, Duration warmup, Map<Backpressure, Duration> windows,
                      int roundsWithoutBackpressure, List<Scenario> scenarios) {

    public RunPlan {
        windows = Map.copyOf(windows);
        scenarios = List.copyOf(scenarios);
        for (Backpressure b : Backpressure.values()) {
            if (!windows.containsKey(b)) {
                throw new IllegalArgumentException("no measurement window for backpressure " + b.label());
            }
        }
        if (roundsWithoutBackpressure < 1) {
            throw new IllegalArgumentException("roundsWithoutBackpressure must be >= 1, got " + roundsWithoutBackpressure);
        }
    }

    public static RunPlan fullPlan() {
        return new RunPlan(false, Duration.ofSeconds(2),
                Map.of(Backpressure.NONE, Duration.ofSeconds(4), Backpressure.LIGHT, Duration.ofSeconds(10),
                        Backpressure.HEAVY, Duration.ofSeconds(30)),
                3, grid(List.of(false, true)));
    }

    /** Heavy: long enough for one aligned checkpoint (4 to 8 s) to start and end inside the window. */
    public static RunPlan quickPlan() {
        return new RunPlan(true, Duration.ofSeconds(1),
                Map.of(Backpressure.NONE, Duration.ofSeconds(2), Backpressure.LIGHT, Duration.ofSeconds(2),
                        Backpressure.HEAVY, Duration.ofSeconds(11)),
                1, grid(List.of(true)));
    }

    /** Every (backpressure, skew, mode) cell, mode varying fastest so that comparable runs sit side by side in time. */
    static List<Scenario> grid(List<Boolean> skews) {
        List<Scenario> out = new ArrayList<>();
        for (Backpressure b : Backpressure.values()) {
            for (boolean skew : skews) {
                for (Mode m : Mode.values()) {
                    out.add(new Scenario(b, skew, m));
                }
            }
        }
        return out;
    }

    /** This plan with only {@code scenarios}. */
    public RunPlan only(List<Scenario> subset) {
        return new RunPlan(quick, warmup, windows, roundsWithoutBackpressure, subset);
    }

    public Duration window(Scenario s) {
        return windows.get(s.backpressure());
    }

    public int rounds(Scenario s) {
        return s.backpressure() == Backpressure.NONE ? roundsWithoutBackpressure : 1;
    }

    /**
     * The runs in order: cells of one backpressure level and skew (the three modes) form a group,
     * and a group with several rounds repeats its cells round after round.
     */
    public List<Scenario> schedule() {
        List<Scenario> out = new ArrayList<>();
        Map<String, List<Scenario>> groups = new LinkedHashMap<>();
        for (Scenario s : scenarios) {
            groups.computeIfAbsent(s.backpressure() + "/" + s.skew(), k -> new ArrayList<>()).add(s);
        }
        for (List<Scenario> group : groups.values()) {
            for (int r = 0; r < rounds(group.get(0)); r++) {
                out.addAll(group);
            }
        }
        return out;
    }

    /** The planned time of the runs on one engine, with two seconds per run for start and stop. */
    public Duration plannedTimePerEngine() {
        Duration total = Duration.ZERO;
        for (Scenario s : schedule()) {
            total = total.plus(warmup).plus(window(s)).plusSeconds(2);
        }
        return total;
    }
}
