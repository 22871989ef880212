package dev.consistentcut.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Which scenarios a run measures and for how long. The full run covers the whole grid (3
 * backpressure levels x skew on/off x 3 modes) on both engines; the quick run only the skewed
 * half, with shorter windows, and JMH with one short fork.
 *
 * @param quick whether this is the quick plan
 * @param warmup time each scenario runs before its measurement window opens
 * @param measure the measurement window without heavy backpressure
 * @param measureHeavy the window under heavy backpressure, where one aligned checkpoint takes seconds
 * @param scenarios the grid cells, in run order
 */
public record RunPlan(boolean quick, Duration warmup, Duration measure, Duration measureHeavy, List<Scenario> scenarios) {

    public RunPlan {
        scenarios = List.copyOf(scenarios);
    }

    public static RunPlan fullPlan() {
        return new RunPlan(false, Duration.ofSeconds(3), Duration.ofSeconds(10), Duration.ofSeconds(30), grid(List.of(false, true)));
    }

    public static RunPlan quickPlan() {
        return new RunPlan(true, Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(7), grid(List.of(true)));
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

    public Duration window(Scenario s) {
        return s.backpressure() == Backpressure.HEAVY ? measureHeavy : measure;
    }

    /** The planned time of the scenario runs on both engines, with a few seconds per run for start and stop. */
    public Duration plannedScenarioTime() {
        Duration total = Duration.ZERO;
        for (Scenario s : scenarios) {
            total = total.plus(warmup.plus(window(s)).plusSeconds(2).multipliedBy(2));
        }
        return total;
    }
}
