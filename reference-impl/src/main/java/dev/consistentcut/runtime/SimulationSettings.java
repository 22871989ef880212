package dev.consistentcut.runtime;

import static dev.consistentcut.runtime.Settings.requireAtLeast;
import static dev.consistentcut.runtime.Settings.requireProbability;

/**
 * What only {@link SimulationRuntime} reads: its step bound and the chances and budgets of the
 * steps it chooses besides the tasks' (triggers, random aborts, injected failures). Time is
 * counted in simulation steps. Immutable; built by {@link RunOptions#builder()}, whose setters
 * document the defaults.
 *
 * @param maxSteps a run that has not finished after this many steps is reported as not finished
 * @param triggerProbability chance that an enabled trigger is taken at a step
 * @param maxCheckpoints most checkpoints triggered in the run (the checkpoint budget)
 * @param abortProbability chance per step of aborting a pending checkpoint at random
 * @param maxFailures most failures injected at random steps
 * @param failureProbability chance per step of a failure while the budget lasts
 * @param failAtStep a failure at exactly this step (-1: none), counted in the budget
 * @param failureAfterCompletionProbability chance that a completed checkpoint is followed at once
 *     by a failure, before any task took its {@code NotifyCheckpointComplete} (the notification is
 *     lost; within the failure budget)
 */
public record SimulationSettings(
        long maxSteps,
        double triggerProbability,
        int maxCheckpoints,
        double abortProbability,
        int maxFailures,
        double failureProbability,
        long failAtStep,
        double failureAfterCompletionProbability) {

    public SimulationSettings {
        requireProbability("triggerProbability", triggerProbability);
        requireProbability("abortProbability", abortProbability);
        requireProbability("failureProbability", failureProbability);
        requireProbability("failureAfterCompletionProbability", failureAfterCompletionProbability);
        requireAtLeast("maxSteps", maxSteps, 1);
        requireAtLeast("maxCheckpoints", maxCheckpoints, 0);
        requireAtLeast("maxFailures", maxFailures, 0);
    }
}
