package dev.consistentcut.stress.properties;

import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.runtime.RunOptions;
import dev.consistentcut.runtime.RunResult;
import dev.consistentcut.runtime.SimulationRuntime;
import java.util.Map;
import java.util.TreeMap;

/**
 * One simulated run: a job, a seed for the simulation's choices, and when failures and
 * checkpoint events may happen. Everything a run does follows from these values, so a printed
 * case is a reproduction. Immutable.
 *
 * @param maxFailures failures injected at random steps (0-3)
 * @param failAtStep a failure at exactly this step, or -1
 * @param failAfterCheckpoint a failure right after the n-th completed checkpoint, or 0
 * @param maxConcurrentAligned checkpoints in flight at once in aligned mode (1-2)
 * @param abortProbability chance per step of aborting a pending checkpoint
 */
public record SimulationCase(Blueprint job, long seed, int maxFailures, long failAtStep, int failAfterCheckpoint,
                             int maxConcurrentAligned, double abortProbability) {

    /** A run that has not finished after this many steps is reported as not finished. */
    static final long MAX_STEPS = 200_000;

    RunOptions options(long withSeed) {
        return builder(withSeed).build();
    }

    private RunOptions.Builder builder(long withSeed) {
        return RunOptions.builder()
                .seed(withSeed)
                .maxSteps(MAX_STEPS)
                .triggerProbability(0.08)
                .maxCheckpoints(8)
                .abortProbability(abortProbability)
                .maxConcurrentAligned(maxConcurrentAligned)
                .maxFailures(maxFailures)
                .failureProbability(maxFailures > 0 ? 0.02 : 0)
                .failAtStep(failAtStep)
                .failAfterCheckpoint(failAfterCheckpoint);
    }

    /**
     * Runs the case to the end of its input (sources end their partitions, operators end
     * with their inputs, FLIP-147), with aborts at least 2% per step, so that notifications,
     * cancellation barriers, declines and ended tasks all take part.
     */
    Outcome runToEndOfInput(BarrierMode mode) {
        SimulationRuntime runtime = new SimulationRuntime(job.toJob(), mode, builder(seed)
                .abortProbability(Math.max(abortProbability, 0.02))
                .endOfInput(true)
                .build());
        return new Outcome(runtime, runtime.run(), Map.of());
    }

    /** Runs the case in {@code mode} with the case's seed. */
    Outcome run(BarrierMode mode) {
        return run(mode, seed);
    }

    /** Runs the case's job and failures in {@code mode} with another simulation seed. */
    Outcome run(BarrierMode mode, long withSeed) {
        SimulationRuntime runtime = new SimulationRuntime(job.toJob(), mode, options(withSeed));
        RunResult result = runtime.run();
        Map<String, String> states = new TreeMap<>();
        for (String t : runtime.graph().operatorTasks()) {
            states.put(t, java.util.HexFormat.of().formatHex(runtime.operatorTask(t).operator().snapshotState()));
        }
        return new Outcome(runtime, result, states);
    }

    /** A finished (or stopped) run: the runtime to inspect, its result, and every operator's final state in hex. */
    record Outcome(SimulationRuntime runtime, RunResult result, Map<String, String> finalStates) {
    }

    @Override
    public String toString() {
        return "job: " + job + "; simulation seed " + seed + ", failures: " + maxFailures + " at random"
                + (failAtStep >= 0 ? ", one at step " + failAtStep : "")
                + (failAfterCheckpoint > 0 ? ", one after checkpoint " + failAfterCheckpoint : "")
                + "; aligned concurrency " + maxConcurrentAligned + ", abort probability " + abortProbability;
    }
}
