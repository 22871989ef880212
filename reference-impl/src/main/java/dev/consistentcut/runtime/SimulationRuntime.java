package dev.consistentcut.runtime;

import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.channel.Channel;
import dev.consistentcut.checkpoint.AckResult;
import dev.consistentcut.checkpoint.Acknowledgement;
import dev.consistentcut.checkpoint.CheckpointCoordinator;
import dev.consistentcut.checkpoint.CheckpointStatus;
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
 * that stops before finishing is reported with a {@code Termination} violation.
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
    private final List<Step> candidates = new ArrayList<>();

    public SimulationRuntime(JobGraph job, BarrierMode mode, RunOptions options) {
        this.mode = mode;
        this.options = options;
        this.graph = PhysicalGraph.of(job);
        this.listener = options.listener();
        this.random = new Random(options.seed());
        Set<String> tasks = new LinkedHashSet<>();
        graph.tasks().forEach(t -> tasks.add(t.id()));
        Set<String> channels = new LinkedHashSet<>();
        graph.channels().forEach(c -> channels.add(c.id()));
        this.coordinator = mode.oneInFlight()
                ? CheckpointCoordinator.forUnaligned(tasks, channels, options.storeFactory().get(), () -> step)
                : CheckpointCoordinator.forAligned(tasks, channels, options.maxConcurrentAligned(),
                        options.storeFactory().get(), () -> step);
        coordinator.setAbortsReachTasks(options.abortsReachTasks());
        this.deployment = new Deployment(graph, mode, new Gateway(), listener, options.trackProcessed(),
                options.endOfInput());
        this.invariants = new CutInvariants(graph);
        this.declined = new DeclinedCheckpoints(options.tolerableFailedCheckpoints(), options.progress(), options.listener());
        // A store that already holds a checkpoint (a durable one, reopened) means: resume from it.
        Optional<CompletedCheckpoint> resume = coordinator.latestCompleted();
        if (resume.isPresent()) {
            deployment.restore(resume);
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

    /** The result so far: final-state checks apply only if the run has finished. */
    public RunResult result() {
        List<Violation> all = new ArrayList<>(violations);
        boolean finished = deployment.sourcesExhausted() && deployment.channelsEmpty() && coordinator.inFlight().isEmpty()
                && deployment.allEnded();
        if (finished) {
            if (options.trackProcessed()) {
                all.addAll(invariants.finalState(mode.name(), deployment.ledgers()));
            }
        } else {
            all.add(new Violation(TERMINATION, 0, null, null, 0, 0, "the run stopped after " + step
                    + " steps before finishing: " + (step >= options.maxSteps() ? "step limit reached" : "no step is enabled")
                    + "; sources exhausted " + deployment.sourcesExhausted() + ", channels empty "
                    + deployment.channelsEmpty() + ", in flight " + coordinator.inFlight()
                    + (deployment.endOfInput ? ", every task ended " + deployment.allEnded() : "")));
        }
        return new RunResult(mode.name(), "simulation", finished, completed, abortedCount(), failures, step, all,
                options.trackProcessed(), deployment.ledgers(), step, switchedIds(), savepointIds());
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
                || (failAfterCheckpointPending() && completed.size() >= options.failAfterCheckpoint());
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
        int allowed = mode.oneInFlight() ? 1 : options.maxConcurrentAligned();
        return triggered < options.maxCheckpoints()
                && (!respectInterval || step - lastTrigger >= options.checkpointInterval())
                && coordinator.inFlight().size() < allowed;
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
            }
        }
        if (options.checkpointTimeout() > 0) {
            ExpiredAborts.abort(coordinator, options.checkpointTimeout(), triggerTimes.keySet(), listener);
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
        violations.addAll(mode.alignedTimeoutMillis() >= 0
                ? invariants.completedAlternating(cp, coordinator.switched(c), coordinator.isSavepoint(c), options.trackProcessed())
                : invariants.completedCheckpoint(cp, mode.name(), mode.overtaking(), options.trackProcessed()));
        options.onCheckpoint().accept(cp);
        if (listener != ActionListener.NONE) {
            listener.onAction(Action.COMPLETE_CHECKPOINT.specName(), Map.of("checkpoint", c));
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
        Optional<CompletedCheckpoint> latest = coordinator.failAndRestore();
        completable.clear();
        deployment.restore(latest);
        failures++;
        if (options.failAfterCheckpoint() > 0 && completed.size() >= options.failAfterCheckpoint()) {
            failAfterCheckpointDone = true;
        }
        options.progress().accept("failure " + failures + " at step " + step + ": restored "
                + latest.map(c -> "checkpoint " + c.id()).orElse("the initial state"));
        if (listener != ActionListener.NONE) {
            listener.onAction(Action.FAIL_AND_RESTORE.specName(), Map.of("checkpoint", latest.map(CompletedCheckpoint::id).orElse(0L)));
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

        /** One step stands for one millisecond: the timeout fires, as a seeded choice, once due. */
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
}
