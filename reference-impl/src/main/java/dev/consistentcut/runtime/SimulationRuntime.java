package dev.consistentcut.runtime;

import dev.consistentcut.annotation.TestSeam;
import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.channel.BufferEncoding;
import dev.consistentcut.channel.Channel;
import dev.consistentcut.check.CutInvariants;
import dev.consistentcut.check.LifecycleChecks;
import dev.consistentcut.check.Violation;
import dev.consistentcut.checkpoint.CheckpointCoordinator;
import dev.consistentcut.checkpoint.CheckpointStatus;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.PhysicalGraph;
import dev.consistentcut.task.Action;
import dev.consistentcut.task.OperatorTask;
import dev.consistentcut.task.SourceTask;
import dev.consistentcut.task.Step;
import dev.consistentcut.task.Task;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.random.RandomGenerator;

/**
 * The deterministic simulation runtime: every task of the job in one thread, advanced one step at
 * a time; the clock is the step counter. At each step it collects every enabled step and chooses
 * one with the run's draws ({@link DrawSettings#newDraws()}, seeded by {@link DrawSettings#seed()}), so a
 * run is reproduced exactly by (job, mode, options).
 *
 * <p>Choice of a step: first the environment's and coordinator's occasional steps, each taken with
 * its probability while enabled: {@code FailAndRestore} (while the failure budget lasts; always at
 * {@link SimulationSettings#failAtStep()} and right after the {@link CheckpointSettings#failAfterCheckpoint()}-th
 * completed checkpoint), {@code TriggerCheckpoint} (when the coordinator allows it, the interval
 * has passed and the checkpoint budget lasts), {@code AbortCheckpoint} (a pending checkpoint at
 * random). Otherwise one of the enabled task steps and {@code CompleteCheckpoint} steps, uniformly.
 * The run ends when no such step is enabled (or after {@link SimulationSettings#maxSteps()}).
 *
 * <p>Checks: every completed checkpoint against {@code ConsistentCutInv} (and
 * {@code AlignedNoChannelStateInv} in aligned mode) as it completes; {@code UnalignedNeverBlocksInv}
 * after every barrier an unaligned task receives; the final state against {@code ExactlyOnceInv}
 * when the run has finished (every source exhausted, every channel empty, nothing in flight). A run
 * that stops before finishing is reported with a {@code Termination} violation. With the ledgers
 * on, the order, restore-point and status invariants step by step ({@link LifecycleChecks}): {@code FifoChannelInv} (and,
 * unaligned, {@code BarrierOvertakesInv}) on the channels each step appended to and after each
 * restore; {@code RestorePointInv}, {@code RestorePointMonotoneProp}, {@code CheckpointStatusProp}
 * and {@code FailureAbortsPendingInv} after each step; {@code FifoChannelStateInv} with each
 * completed checkpoint.
 *
 * <p>The coordinator's steps and the checks that go with them are the {@link CheckpointDriver}'s;
 * this class chooses the steps and adds the checks of task steps.
 *
 * <p>Not thread-safe: one thread creates, runs and inspects it (the driver's coordinator thread).
 */
public final class SimulationRuntime extends DrivenRuntime {

    /** Violation name for a run that cannot go on before it has finished. */
    public static final String TERMINATION = "Termination";

    private final CheckpointDriver driver;
    private final BarrierMode mode;
    /** The simulation's own settings; the driver has the checkpoints' and the observers'. */
    private final SimulationSettings settings;
    private final CheckpointSettings checkpoints;
    private final long seed;
    private final RandomGenerator random;

    private long step;
    /** Materialisations the tasks handed over since the last trigger, and before it ({@link #materialise}). */
    private final List<Runnable> materialisations = new ArrayList<>();
    private final List<Runnable> materialisationsDue = new ArrayList<>();
    private long lastTrigger = Long.MIN_VALUE / 2;
    /** A failure was drawn to follow the last completion before its notification (failureAfterCompletionProbability). */
    private boolean failAfterCompletion;
    private final List<Step> candidates = new ArrayList<>();
    /** Per task: the channels it appends to. */
    private final Map<String, List<Channel>> outputsOf = new HashMap<>();
    private final Map<String, List<String>> senders = new HashMap<>();
    /**
     * Every completed checkpoint, whole: what {@link #completedCheckpoints} gives the spec replay and
     * tests that step a simulation. Bounded by the simulation's checkpoint budget; the threaded
     * runtime, whose runs are long, keeps none of them.
     */
    private final List<CompletedCheckpoint> completed = new ArrayList<>();

    /** A run of {@code job} in {@code mode} with {@code options}; see the class comment. */
    public SimulationRuntime(JobGraph job, BarrierMode mode, RunOptions options) {
        this(job, mode, options, UnaryOperator.identity());
    }

    /**
     * A test seam: {@code lifecycleView} wraps what the step-by-step checks ({@link LifecycleChecks})
     * read of the coordinator, so that a test can hand them a broken coordinator's answers, which
     * the real (final) {@link CheckpointCoordinator} never gives; the run itself always uses the
     * real one. Identity: no change.
     */
    @TestSeam
    SimulationRuntime(JobGraph job, BarrierMode mode, RunOptions options, UnaryOperator<LifecycleChecks.Coordinator> lifecycleView) {
        this.mode = mode;
        this.settings = options.simulation();
        this.checkpoints = options.checkpoints();
        this.seed = options.draws().seed();
        this.random = options.draws().newDraws();
        // One step stands for one millisecond; declines are drawn from the run's seeded draws.
        ObservationSettings o = options.observation();
        ObservationSettings keeping = new ObservationSettings(o.observer(), o.trackProcessed(),
                o.onCheckpoint().andThen(completed::add), o.progress());
        this.driver = new CheckpointDriver(job, mode, checkpoints, keeping, () -> step, 1, BufferEncoding.REFERENCES,
                lifecycleView, false, new DriverGateway.Choices(1, random::nextDouble, () -> { }, () -> false), Runnable::run,
                materialisations::add, Runnable::run); // a task's write within the step that snapshots: seeded steps
        for (String t : driver.deployment.tasks.keySet()) {
            outputsOf.put(t, driver.graph.outputs(t).stream().map(c -> driver.deployment.channels.get(c.id())).toList());
        }
    }
    /** Runs the job to its end (or {@link SimulationSettings#maxSteps()}) and checks it; see the class comment. */
    @Override
    public RunResult run() {
        while (step < settings.maxSteps() && step()) {
            // every step is checked as it happens
        }
        return result();
    }

    /**
     * Chooses and performs one step.
     *
     * @return false, having done nothing, when no step was chosen: the run is over
     */
    public boolean step() {
        candidates.clear();
        addEnabledSteps(candidates);
        Step chosen = chooseOccasionalStep();
        if (chosen == null) {
            if (!candidates.isEmpty()) {
                chosen = candidates.get(random.nextInt(candidates.size()));
            } else if (driver.failAfterCheckpointPending() && triggerAllowed(false)) {
                // Nothing moves, but the promised failure needs more checkpoints: the idle clock
                // jumps to the next trigger.
                chosen = new Step(Action.TRIGGER_CHECKPOINT, null, -1, 0);
            } else if (!driver.deployment.sinksSettled() && finalTriggerAllowed()) {
                // The final checkpoint (FLIP-147): a sink still holds transactions that only a
                // completed checkpoint commits; it is taken even beyond the checkpoint budget.
                chosen = new Step(Action.TRIGGER_CHECKPOINT, null, -1, 0);
            } else {
                return false;
            }
        }
        try {
            perform(chosen);
        } catch (TooManyFailedCheckpointsException e) {
            throw e; // the job failed as configured, not the simulation: the caller reports it
        } catch (RuntimeException e) {
            throw new IllegalStateException("simulation (mode " + mode.name() + ", seed " + seed
                    + ") failed at step " + step + ", " + chosen + ": " + e.getMessage(), e);
        }
        step++;
        return true;
    }

    // ------------------------------------------------------------------ driven from outside

    /**
     * The task steps and {@code CompleteCheckpoint} steps enabled now: what {@link #step()} chooses
     * among besides the environment's steps. For a caller that schedules the run itself (spec
     * replay, {@code dev.consistentcut.replay}) with {@link #takeStep}.
     */
    public List<Step> enabledSteps() {
        List<Step> out = new ArrayList<>();
        addEnabledSteps(out);
        return out;
    }

    private void addEnabledSteps(List<Step> out) {
        for (Task t : driver.deployment.tasks.values()) {
            t.enabledSteps(out);
        }
        for (long c : driver.completable()) {
            out.add(new Step(Action.COMPLETE_CHECKPOINT, null, -1, c));
        }
    }

    /**
     * Performs exactly step {@code s}, with every check {@link #step()} makes, instead of a seeded
     * choice: the hook for a caller that schedules the run itself (spec replay). A task step or a
     * {@code CompleteCheckpoint} must be one of {@link #enabledSteps()}; {@code TriggerCheckpoint}
     * (its id is the coordinator's next, {@code checkpointId} is ignored) only when the coordinator
     * allows one, {@code AbortCheckpoint(c)} only for a pending {@code c}; {@code FailAndRestore}
     * always. No budget of {@link RunOptions} applies: the caller keeps its own.
     *
     * @throws IllegalStateException naming the step when it is not enabled (nothing was done), or
     *     when performing it failed
     */
    public void takeStep(Step s) {
        boolean enabled = switch (s.action()) {
            case TRIGGER_CHECKPOINT -> driver.coordinator.canTrigger();
            case ABORT_CHECKPOINT -> driver.coordinator.status(s.checkpointId()) == CheckpointStatus.PENDING;
            case FAIL_AND_RESTORE -> true;
            default -> enabledSteps().contains(s);
        };
        if (!enabled) {
            throw new IllegalStateException(s + " is not enabled at step " + step);
        }
        try {
            perform(s);
        } catch (RuntimeException e) {
            throw new IllegalStateException(s + " failed at step " + step + ": " + e.getMessage(), e);
        }
        step++;
    }

    /** The result so far: final-state checks apply only if the run has finished. */
    public RunResult result() {
        List<Violation> all = new ArrayList<>(driver.violations);
        Deployment d = driver.deployment;
        boolean finished = d.sourcesExhausted() && d.channelsEmpty() && driver.coordinator.inFlight().isEmpty()
                && d.allEnded() && d.sinksSettled();
        if (finished) {
            all.addAll(driver.finalChecks(false)); // NoDuplicateOutputInv was checked step by step
        } else {
            all.add(new Violation(TERMINATION, 0, null, null, 0, 0, "the run stopped after " + step
                    + " steps before finishing: " + (step >= settings.maxSteps() ? "step limit reached" : "no step is enabled")
                    + "; sources exhausted " + d.sourcesExhausted() + ", channels empty "
                    + d.channelsEmpty() + ", in flight " + driver.coordinator.inFlight()
                    + (d.endOfInput ? ", every task ended " + d.allEnded() : "")
                    + (driver.sinks.isEmpty() ? "" : ", sinks committed everything " + d.sinksSettled())));
        }
        return driver.result("simulation", finished, step, all, step);
    }

    /** Checkpoints completed so far. */
    public List<CompletedCheckpoint> completedCheckpoints() {
        return List.copyOf(completed);
    }

    /** Per physical input of operator {@code task}, its sender. */
    private List<String> senders(String task) {
        return senders.computeIfAbsent(task, k -> driver.graph.inputs(k).stream().map(PhysicalGraph.ChannelSpec::sender).toList());
    }

    private Step chooseOccasionalStep() {
        boolean failureDue = step == settings.failAtStep() || driver.failAfterCheckpointDue() || failAfterCompletion;
        if (failureDue || (driver.failures() < settings.maxFailures() && settings.failureProbability() > 0
                && random.nextDouble() < settings.failureProbability())) {
            return new Step(Action.FAIL_AND_RESTORE, null, -1, 0);
        }
        if (triggerAllowed(true) && random.nextDouble() < settings.triggerProbability()) {
            return new Step(Action.TRIGGER_CHECKPOINT, null, -1, 0);
        }
        if (settings.abortProbability() > 0 && random.nextDouble() < settings.abortProbability()) {
            CheckpointCoordinator coordinator = driver.coordinator;
            List<Long> pending = coordinator.inFlight().stream()
                    .filter(c -> coordinator.status(c) == CheckpointStatus.PENDING).sorted().toList();
            if (!pending.isEmpty()) {
                return new Step(Action.ABORT_CHECKPOINT, null, -1, pending.get(random.nextInt(pending.size())));
            }
        }
        return null;
    }

    private boolean triggerAllowed(boolean respectInterval) {
        return driver.triggeredCount() < settings.maxCheckpoints()
                && (!respectInterval || step - lastTrigger >= checkpoints.checkpointInterval())
                && driver.coordinator.canTrigger();
    }

    /** The final checkpoint may be triggered beyond the budget and the interval, one in flight at a time. */
    private boolean finalTriggerAllowed() {
        return driver.coordinator.inFlight().isEmpty();
    }

    private void perform(Step s) {
        switch (s.action()) {
            case TRIGGER_CHECKPOINT -> {
                materialise();
                if (driver.trigger().isEmpty()) {
                    throw new IllegalStateException("TriggerCheckpoint was enabled but the coordinator refused it");
                }
                lastTrigger = step;
            }
            case COMPLETE_CHECKPOINT -> driver.complete(s.checkpointId()).ifPresent(cp -> {
                driver.notifyCompletion(cp.id()); // NotifyCheckpointComplete(t, c) is now enabled for every sink
                if (!driver.sinks.isEmpty() && driver.failures() < settings.maxFailures()
                        && settings.failureAfterCompletionProbability() > 0
                        && random.nextDouble() < settings.failureAfterCompletionProbability()) {
                    failAfterCompletion = true; // the next step is a failure: the notification is lost
                }
            });
            case ABORT_CHECKPOINT -> driver.abort(s.checkpointId());
            case FAIL_AND_RESTORE -> failAndRestore();
            default -> performTaskStep(s);
        }
        driver.abortExpired();
        if (s.task() == null) {
            driver.lifecycle.checkAll();
        } else {
            driver.lifecycle.check(s.checkpointId());
            driver.lifecycle.channels(outputsOf.get(s.task()));
        }
    }

    /**
     * Runs the materialisations the tasks handed over before the previous trigger and keeps
     * those handed over since for the next: each takes one checkpoint interval, so a task writes
     * at least one more segment before it rebases (a prefix of its chain replaced, the later
     * segments kept), as with a background thread, and the seed alone decides when (no draw).
     */
    private void materialise() {
        List<Runnable> due = new ArrayList<>(materialisationsDue);
        materialisationsDue.clear();
        materialisationsDue.addAll(materialisations);
        materialisations.clear();
        due.forEach(Runnable::run);
    }

    /** A task's step, with the checks that follow it. */
    private void performTaskStep(Step s) {
        Task t = driver.task(s.task());
        t.perform(s);
        if (mode.overtaking() && s.action() == Action.RECEIVE_BARRIER && t instanceof OperatorTask o) {
            driver.violations.addAll(CutInvariants.unalignedNeverBlocks(o.id(), o.inputCount(), o::isBlocked));
        }
        if (mode.alignedTimeoutMillis() >= 0 && t instanceof OperatorTask o) {
            long c = o.handlerState().checkpointId();
            if (c != 0) {
                driver.violations.addAll(CutInvariants.switchPropagates(o.id(), c, senders(o.id()), o::isBlocked,
                        driver.coordinator.switchedTasks(c)));
            }
        }
        if (s.action() == Action.NOTIFY_CHECKPOINT_COMPLETE) {
            driver.checkNoDuplicateOutput(); // a commit: the output grew
        }
    }

    @Override
    public void failAndRestore() {
        failAfterCompletion = false;
        driver.failAndRestore(" at step " + step);
        driver.checkNoDuplicateOutput();
    }

    // ------------------------------------------------------------------ for tests and the CLI

    @Override
    CheckpointDriver driver() {
        return driver;
    }

    public PhysicalGraph graph() {
        return driver.graph;
    }
}
