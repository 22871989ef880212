package dev.consistentcut.runtime;

import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.channel.Channel;
import dev.consistentcut.checkpoint.AckResult;
import dev.consistentcut.checkpoint.Acknowledgement;
import dev.consistentcut.checkpoint.CheckpointCoordinator;
import dev.consistentcut.checkpoint.CheckpointStatus;
import dev.consistentcut.checkpoint.CheckpointStore;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.PhysicalGraph;
import dev.consistentcut.invariants.CutInvariants;
import dev.consistentcut.invariants.Violation;
import dev.consistentcut.task.Action;
import dev.consistentcut.task.ActionListener;
import dev.consistentcut.task.CoordinatorGateway;
import dev.consistentcut.task.OperatorTask;
import dev.consistentcut.task.SourceTask;
import dev.consistentcut.task.Step;
import dev.consistentcut.task.Task;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;

/**
 * The deterministic simulation runtime: every task of the job in one thread, advanced one step at
 * a time; the clock is the step counter. At each step it collects every enabled step and chooses
 * one with a {@link Random} seeded by {@link RunOptions#seed()}, so a run is reproduced exactly by
 * (job, mode, options).
 *
 * <p>Choice of a step: first the environment's and coordinator's occasional steps, each taken with
 * its probability while enabled: {@code FailAndRestore} (while the failure budget lasts; always at
 * {@link RunOptions#failAtStep()} and right after the {@link RunOptions#failAfterCheckpoint()}-th
 * completed checkpoint), {@code TriggerCheckpoint} (when the coordinator allows it, the interval
 * has passed and the checkpoint budget lasts), {@code AbortCheckpoint} (a pending checkpoint at
 * random). Otherwise one of the enabled task steps and {@code CompleteCheckpoint} steps, uniformly.
 * The run ends when no such step is enabled (or after {@link RunOptions#maxSteps()}).
 *
 * <p>Checks: every completed checkpoint against {@code ConsistentCutInv} (and
 * {@code AlignedNoChannelStateInv} in aligned mode) as it completes; {@code UnalignedNeverBlocksInv}
 * after every barrier an unaligned task receives; the final state against {@code ExactlyOnceInv}
 * when the run has finished (every source exhausted, every channel empty, nothing in flight). A run
 * that stops before finishing is reported with a {@code Termination} violation. With the ledgers
 * on, issue 10's invariants step by step ({@link LifecycleChecks}): {@code FifoChannelInv} (and,
 * unaligned, {@code BarrierOvertakesInv}) on the channels each step appended to and after each
 * restore; {@code RestorePointInv}, {@code RestorePointMonotoneProp}, {@code CheckpointStatusProp}
 * and {@code FailureAbortsPendingInv} after each step; {@code FifoChannelStateInv} with each
 * completed checkpoint.
 *
 * <p>Not thread-safe: one thread creates, runs and inspects it.
 */
public final class SimulationRuntime implements JobRuntime {

    /** Violation name for a run that cannot go on before it has finished. */
    public static final String TERMINATION = "Termination";

    private final BarrierMode mode;
    private final RunOptions options;
    private final PhysicalGraph graph;
    private final CheckpointCoordinator coordinator;
    private final Deployment deployment;
    private final CutInvariants invariants;
    /** Checkpoints whose store write failed (issue 17); coordinator thread only. */
    private final DeclinedCheckpoints declined;
    private final ActionListener listener;
    private final Random random;

    private long step;
    private final Map<Long, Long> triggerTimes = new HashMap<>();
    /** Checkpoints every task has acknowledged: {@code CompleteCheckpoint} is enabled for them. */
    private final Set<Long> completable = new TreeSet<>();
    private final List<CompletedCheckpoint> completed = new ArrayList<>();
    private final List<Violation> violations = new ArrayList<>();
    private int triggered;
    private int failures;
    private boolean failAfterCheckpointDone;
    private long lastTrigger = Long.MIN_VALUE / 2;
    /** A failure was drawn to follow the last completion before its notification (failureAfterCompletionProbability). */
    private boolean failAfterCompletion;
    /** Completion notifications lost to a failure: a sink had one waiting when the failure struck. */
    private int lostNotifications;
    private boolean duplicateSeen;
    /** The transactional sinks' task ids (empty for a job without one). */
    private final Set<String> sinks;
    private final List<Step> candidates = new ArrayList<>();
    /** Issue 10's step-by-step checks (with the ledgers only: off in benchmarks); null when off. */
    private final LifecycleChecks lifecycle;
    /** Per task: the channels it appends to. */
    private final Map<String, List<Channel>> outputsOf = new HashMap<>();

    SimulationRuntime(JobGraph job, BarrierMode mode, RunOptions options, java.util.function.UnaryOperator<LifecycleChecks.Coordinator> lifecycleView) {
        this.mode = mode;
        this.options = options;
        this.graph = PhysicalGraph.of(job);
        this.listener = options.listener();
        this.random = new Random(options.seed());
        Set<String> tasks = new LinkedHashSet<>();
        graph.tasks().forEach(t -> tasks.add(t.id()));
        Set<String> channels = new LinkedHashSet<>();
        graph.channels().forEach(c -> channels.add(c.id()));
        CheckpointStore store = options.storeFactory().get();
        this.coordinator = mode.oneInFlight()
                ? CheckpointCoordinator.forUnaligned(tasks, channels, store, () -> step)
                : CheckpointCoordinator.forAligned(tasks, channels, options.maxConcurrentAligned(),
                        store, () -> step);
        coordinator.setAbortsReachTasks(options.abortsReachTasks());
        this.deployment = new Deployment(graph, mode, new Gateway(), listener, options.trackProcessed(),
                options.endOfInput());
        this.invariants = new CutInvariants(graph);
        this.declined = new DeclinedCheckpoints(options.tolerableFailedCheckpoints(), options.progress(), options.listener());
        this.lifecycle = options.trackProcessed()
                ? new LifecycleChecks(lifecycleView.apply(LifecycleChecks.Coordinator.of(coordinator)), store, invariants, mode.overtaking(), violations) : null;
        for (String t : deployment.tasks.keySet()) {
            outputsOf.put(t, graph.outputs(t).stream().map(c -> deployment.channels.get(c.id())).toList());
        }
        // A store that already holds a checkpoint (a durable one, reopened) means: resume from it.
        // Either way every task is restored once before the run (a transactional sink then
        // re-commits the resumed checkpoint's transactions and aborts what a dead process left).
        deployment.restore(coordinator.latestCompleted());
        this.sinks = deployment.transactionalSinks();
        coordinator.setCompletionListeners(sinks);
        if (lifecycle != null) {
            lifecycle.channels(deployment.channels.values()); // as restored (a resume's channel state)
        }
    }

    /** Runs the job to its end (or {@link RunOptions#maxSteps()}) and checks it; see the class comment. */
    @Override
    public RunResult run() {
        while (step < options.maxSteps() && step()) {
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
        for (Task t : deployment.tasks.values()) {
            t.enabledSteps(candidates);
        }
        for (long c : completable) {
            candidates.add(new Step(Action.COMPLETE_CHECKPOINT, null, -1, c));
        }
        Step chosen = chooseOccasionalStep();
        if (chosen == null) {
            if (!candidates.isEmpty()) {
                chosen = candidates.get(random.nextInt(candidates.size()));
            } else if (failAfterCheckpointPending() && triggerAllowed(false)) {
                // Nothing moves, but the promised failure needs more checkpoints: the idle clock
                // jumps to the next trigger.
                chosen = new Step(Action.TRIGGER_CHECKPOINT, null, -1, 0);
            } else if (!deployment.sinksSettled() && finalTriggerAllowed()) {
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
            throw new IllegalStateException("simulation (mode " + mode.name() + ", seed " + options.seed()
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
        for (Task t : deployment.tasks.values()) {
            t.enabledSteps(out);
        }
        for (long c : completable) {
            out.add(new Step(Action.COMPLETE_CHECKPOINT, null, -1, c));
        }
        return out;
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
            case TRIGGER_CHECKPOINT -> coordinator.canTrigger();
            case ABORT_CHECKPOINT -> coordinator.status(s.checkpointId()) == CheckpointStatus.PENDING;
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
        List<Violation> all = new ArrayList<>(violations);
        boolean finished = deployment.sourcesExhausted() && deployment.channelsEmpty() && coordinator.inFlight().isEmpty()
                && deployment.allEnded() && deployment.sinksSettled();
        if (finished) {
            if (options.trackProcessed()) {
                all.addAll(invariants.finalState(mode.name(), deployment.ledgers()));
            }
            if (!sinks.isEmpty() && !"at-least-once".equals(mode.name())) {
                all.addAll(invariants.outputExactlyOnce(deployment.committedOutput()));
            }
        } else {
            all.add(new Violation(TERMINATION, 0, null, null, 0, 0, "the run stopped after " + step
                    + " steps before finishing: " + (step >= options.maxSteps() ? "step limit reached" : "no step is enabled")
                    + "; sources exhausted " + deployment.sourcesExhausted() + ", channels empty "
                    + deployment.channelsEmpty() + ", in flight " + coordinator.inFlight()
                    + (deployment.endOfInput ? ", every task ended " + deployment.allEnded() : "")
                    + (sinks.isEmpty() ? "" : ", sinks committed everything " + deployment.sinksSettled())));
        }
        return new RunResult(mode.name(), "simulation", finished, completed, abortedCount(), failures, step, all,
                options.trackProcessed(), deployment.ledgers(), step, switchedIds(), savepointIds());
    }

    /** Completion notifications lost to failures so far (a sink had one waiting when a failure struck). */
    public int lostNotifications() {
        return lostNotifications;
    }

    /** Checkpoints completed so far. */
    public List<CompletedCheckpoint> completedCheckpoints() {
        return List.copyOf(completed);
    }

    private final Map<String, List<String>> senders = new HashMap<>();

    /** Per physical input of operator {@code task}, its sender. */
    private List<String> senders(String task) {
        return senders.computeIfAbsent(task, k -> graph.inputs(k).stream().map(PhysicalGraph.ChannelSpec::sender).toList());
    }

    private int triggeredSoFar() {
        return triggered;
    }

    private Step chooseOccasionalStep() {
        boolean failureDue = step == options.failAtStep()
                || (failAfterCheckpointPending() && completed.size() >= options.failAfterCheckpoint())
                || failAfterCompletion;
        if (failureDue || (failures < options.maxFailures() && options.failureProbability() > 0
                && random.nextDouble() < options.failureProbability())) {
            return new Step(Action.FAIL_AND_RESTORE, null, -1, 0);
        }
        if (triggerEnabled() && random.nextDouble() < options.triggerProbability()) {
            return new Step(Action.TRIGGER_CHECKPOINT, null, -1, 0);
        }
        if (options.abortProbability() > 0 && random.nextDouble() < options.abortProbability()) {
            List<Long> pending = coordinator.inFlight().stream()
                    .filter(c -> coordinator.status(c) == CheckpointStatus.PENDING).sorted().toList();
            if (!pending.isEmpty()) {
                return new Step(Action.ABORT_CHECKPOINT, null, -1, pending.get(random.nextInt(pending.size())));
            }
        }
        return null;
    }

    private boolean triggerEnabled() {
        return triggerAllowed(true);
    }

    private boolean triggerAllowed(boolean respectInterval) {
        return triggered < options.maxCheckpoints()
                && (!respectInterval || step - lastTrigger >= options.checkpointInterval())
                && coordinator.canTrigger();
    }

    /** The final checkpoint may be triggered beyond the budget and the interval, one in flight at a time. */
    private boolean finalTriggerAllowed() {
        return coordinator.inFlight().isEmpty();
    }

    private boolean failAfterCheckpointPending() {
        return options.failAfterCheckpoint() > 0 && !failAfterCheckpointDone;
    }

    private void perform(Step s) {
        switch (s.action()) {
            case TRIGGER_CHECKPOINT -> triggerCheckpoint();
            case COMPLETE_CHECKPOINT -> completeCheckpoint(s.checkpointId());
            case ABORT_CHECKPOINT -> abortCheckpoint(s.checkpointId());
            case FAIL_AND_RESTORE -> failAndRestore();
            default -> {
                Task t = deployment.tasks.get(s.task());
                t.perform(s);
                if (mode.overtaking() && s.action() == Action.RECEIVE_BARRIER && t instanceof OperatorTask o) {
                    violations.addAll(CutInvariants.unalignedNeverBlocks(o.id(), o.inputCount(), o::isBlocked));
                }
                if (mode.alignedTimeoutMillis() >= 0 && t instanceof OperatorTask o) {
                    long c = o.handlerState().checkpointId();
                    if (c != 0) {
                        violations.addAll(CutInvariants.switchPropagates(o.id(), c, senders(o.id()), o::isBlocked,
                                coordinator.switchedTasks(c)));
                    }
                }
                if (s.action() == Action.NOTIFY_CHECKPOINT_COMPLETE) {
                    checkNoDuplicateOutput(); // a commit: the output grew
                }
            }
        }
        if (options.checkpointTimeout() > 0) {
            ExpiredAborts.abort(coordinator, options.checkpointTimeout(), triggerTimes.keySet(), listener);
        }
        if (lifecycle != null) {
            if (s.task() == null) {
                lifecycle.checkAll();
            } else {
                lifecycle.check(s.checkpointId());
                lifecycle.channels(outputsOf.get(s.task()));
            }
        }
    }

    /** Action {@code TriggerCheckpoint}, through the coordinator. */
    private void triggerCheckpoint() {
        boolean savepoint = options.isSavepoint(triggeredSoFar() + 1);
        OptionalLong c = coordinator.triggerCheckpoint(savepoint);
        if (c.isEmpty()) {
            throw new IllegalStateException("TriggerCheckpoint was enabled but the coordinator refused it");
        }
        triggered++;
        if (lifecycle != null) {
            lifecycle.triggered(c.getAsLong());
        }
        lastTrigger = step;
        triggerTimes.put(c.getAsLong(), step);
        if (coordinator.allAcknowledged(c.getAsLong())) {
            completable.add(c.getAsLong()); // every task had ended: their final states make it
        }
        if (listener != ActionListener.NONE) {
            listener.onAction(Action.TRIGGER_CHECKPOINT.specName(), savepoint
                    ? Map.of("checkpoint", c.getAsLong(), "savepoint", true) : Map.of("checkpoint", c.getAsLong()));
        }
    }

    /** Action {@code CompleteCheckpoint}, through the coordinator; the checkpoint is checked at once. */
    private void completeCheckpoint(long c) {
        completable.remove(c);
        Optional<CompletedCheckpoint> done;
        try {
            done = coordinator.completeCheckpoint(c);
        } catch (java.io.UncheckedIOException e) {
            declined.declined(c, e); // the coordinator aborted it: AbortCheckpoint(c)
            return;
        }
        if (done.isEmpty()) {
            return; // aborted meanwhile
        }
        CompletedCheckpoint cp = done.get();
        declined.completed();
        completed.add(cp);
        // The completion subsumed (aborted) every older pending checkpoint: those are no longer
        // completable, even if every task acknowledged them (found by the spec replay).
        completable.removeIf(id -> coordinator.status(id) != CheckpointStatus.PENDING);
        if (lifecycle != null) {
            lifecycle.completed(cp.id());
        }
        violations.addAll(mode.alignedTimeoutMillis() >= 0
                ? invariants.completedAlternating(cp, coordinator.switched(c), coordinator.isSavepoint(c), options.trackProcessed())
                : invariants.completedCheckpoint(cp, mode.name(), mode.overtaking(), options.trackProcessed()));
        options.onCheckpoint().accept(cp);
        if (listener != ActionListener.NONE) {
            listener.onAction(Action.COMPLETE_CHECKPOINT.specName(), Map.of("checkpoint", c));
        }
        coordinator.notifyTasksOfCompletion(c); // NotifyCheckpointComplete(t, c) is now enabled for every sink
        if (!sinks.isEmpty() && failures < options.maxFailures() && options.failureAfterCompletionProbability() > 0
                && random.nextDouble() < options.failureAfterCompletionProbability()) {
            failAfterCompletion = true; // the next step is a failure: the notification is lost
        }
    }

    /** Action {@code AbortCheckpoint}, through the coordinator. */
    private void abortCheckpoint(long c) {
        if (coordinator.abortCheckpoint(c)) {
            completable.remove(c);
            if (listener != ActionListener.NONE) {
                listener.onAction(Action.ABORT_CHECKPOINT.specName(), Map.of("checkpoint", c));
            }
        }
    }

    @Override
    public void failAndRestore() {
        failAfterCompletion = false;
        for (String t : sinks) {
            if (coordinator.nextCompleteNotificationFor(t).isPresent()) {
                lostNotifications++;
            }
        }
        Optional<CompletedCheckpoint> latest = coordinator.failAndRestore();
        completable.clear();
        deployment.restore(latest); // sinks re-commit the restored checkpoint's transactions
        if (lifecycle != null) {
            lifecycle.failed();
            lifecycle.checkAll();
            lifecycle.channels(deployment.channels.values());
        }
        failures++;
        checkNoDuplicateOutput();
        if (options.failAfterCheckpoint() > 0 && completed.size() >= options.failAfterCheckpoint()) {
            failAfterCheckpointDone = true;
        }
        options.progress().accept("failure " + failures + " at step " + step + ": restored "
                + latest.map(c -> "checkpoint " + c.id()).orElse("the initial state"));
        if (listener != ActionListener.NONE) {
            listener.onAction(Action.FAIL_AND_RESTORE.specName(), restoreEvent(latest, deployment));
        }
    }

    /** The parameters of a {@code FailAndRestore} event: the restored checkpoint, and what each sink re-committed. */
    static Map<String, Object> restoreEvent(Optional<CompletedCheckpoint> latest, Deployment deployment) {
        long id = latest.map(CompletedCheckpoint::id).orElse(0L);
        Map<String, List<Long>> recommitted = deployment.lastRecommitted();
        return recommitted.isEmpty() ? Map.of("checkpoint", id) : Map.of("checkpoint", id, "recommitted", recommitted);
    }

    /** {@code NoDuplicateOutputInv}, after each step that commits (a notification, a restore). */
    private void checkNoDuplicateOutput() {
        if (!duplicateSeen && !sinks.isEmpty() && !"at-least-once".equals(mode.name())) {
            List<Violation> found = invariants.noDuplicateOutput(deployment.committedOutput());
            violations.addAll(found);
            duplicateSeen = !found.isEmpty(); // committed output is never taken back: reported once
        }
    }

    /**
     * Checkpoints that ended ABORTED, whatever the reason (timeout, random abort, failure, or
     * subsumed by a newer completed one), as the coordinator records them.
     */
    private int abortedCount() {
        return (int) triggerTimes.keySet().stream()
                .filter(id -> coordinator.status(id) == CheckpointStatus.ABORTED).count();
    }

    /** The completed checkpoints some task switched to unaligned (alternating mode). */
    private Set<Long> switchedIds() {
        Set<Long> out = new TreeSet<>();
        completed.forEach(cp -> {
            if (coordinator.switched(cp.id())) {
                out.add(cp.id());
            }
        });
        return out;
    }

    /** The completed checkpoints that were savepoints. */
    private Set<Long> savepointIds() {
        Set<Long> out = new TreeSet<>();
        completed.forEach(cp -> {
            if (coordinator.isSavepoint(cp.id())) {
                out.add(cp.id());
            }
        });
        return out;
    }

    // ------------------------------------------------------------------ for tests and the CLI

    public CheckpointCoordinator coordinator() {
        return coordinator;
    }

    public PhysicalGraph graph() {
        return graph;
    }

    public OperatorTask operatorTask(String id) {
        return (OperatorTask) task(id);
    }

    public SourceTask sourceTask(String id) {
        return (SourceTask) task(id);
    }

    public Channel channel(String id) {
        Channel c = deployment.channels.get(id);
        if (c == null) {
            throw new IllegalArgumentException("unknown channel '" + id + "'");
        }
        return c;
    }

    private Task task(String id) {
        Task t = deployment.tasks.get(id);
        if (t == null) {
            throw new IllegalArgumentException("unknown task instance '" + id + "'");
        }
        return t;
    }

    /** The gateway tasks use: acknowledgements go to the coordinator; all acknowledged enables CompleteCheckpoint. */
    private final class Gateway implements CoordinatorGateway {
        @Override
        public OptionalLong nextBarrierFor(String sourceTask) {
            return coordinator.nextBarrierFor(sourceTask);
        }

        @Override
        public void acknowledge(Acknowledgement ack) {
            if (coordinator.acknowledge(ack) == AckResult.ALL_ACKNOWLEDGED) {
                completable.add(ack.checkpointId());
            }
        }

        @Override
        public long triggerTime(long checkpointId) {
            Long t = triggerTimes.get(checkpointId);
            return t == null ? step : t;
        }

        @Override
        public long now() {
            return step;
        }

        @Override
        public boolean isSavepoint(long checkpointId) {
            return coordinator.isSavepoint(checkpointId);
        }

        @Override
        public void alignmentSwitched(String task, long checkpointId) {
            coordinator.alignmentSwitched(task, checkpointId);
        }

        /**
         * One step stands for one millisecond: the timeout fires, as a seeded choice, once due;
         * also for a checkpoint aborted meanwhile that the task has not learnt of (the spec's
     * TimeoutAlignment: the task's timer knows no more than the task; so does Flink's).
         */
        @Override
        public boolean alignmentTimedOut(long checkpointId, long timeoutMillis) {
            return step - triggerTime(checkpointId) >= timeoutMillis;
        }

        @Override
        public OptionalLong nextAbortNotificationFor(String task) {
            return coordinator.nextAbortNotificationFor(task);
        }

        @Override
        public void abortNotified(String task, long checkpointId) {
            coordinator.abortNotified(task, checkpointId);
        }

        @Override
        public OptionalLong nextCompleteNotificationFor(String task) {
            return coordinator.nextCompleteNotificationFor(task);
        }

        @Override
        public void completeNotified(String task, long checkpointId) {
            coordinator.completeNotified(task, checkpointId);
        }

        /** A seeded choice, drawn only when declines are on (so the runs of every other seed stay as they were). */
        @Override
        public boolean declinesOnFirstBarrier(String task, long checkpointId) {
            return options.declineProbability() > 0 && random.nextDouble() < options.declineProbability();
        }

        @Override
        public void declineCheckpoint(String task, long checkpointId) {
            if (coordinator.declineCheckpoint(task, checkpointId)) {
                completable.remove(checkpointId);
                if (listener != ActionListener.NONE) {
                    listener.onAction(Action.ABORT_CHECKPOINT.specName(), Map.of("checkpoint", checkpointId,
                            "declinedBy", task));
                }
            }
        }

        @Override
        public void taskEnded(Acknowledgement finalState) {
            completable.addAll(coordinator.taskEnded(finalState));
        }
    }

    // This constructor is here, at the end, not at the top, so that the line numbers of the PIT triage
    // (docs/pit-runtime-simulation.md) stay valid. The package-private one it calls is a test seam:
    // lifecycleView wraps what the step-by-step checks (LifecycleChecks) read of the coordinator,
    // so that a test can hand them a broken coordinator's answers, which the real (final)
    // CheckpointCoordinator never gives; the run itself always uses the real one. Identity: no change.
    /** A run of {@code job} in {@code mode} with {@code options}; see the class comment. */
    public SimulationRuntime(JobGraph job, BarrierMode mode, RunOptions options) {
        this(job, mode, options, java.util.function.UnaryOperator.identity());
    }
}
