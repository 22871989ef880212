package dev.consistentcut.runtime;

import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.barrier.DeliveryGuarantee;
import dev.consistentcut.channel.BufferEncoding;
import dev.consistentcut.channel.Channel;
import dev.consistentcut.check.CompletionChecks;
import dev.consistentcut.check.CutInvariants;
import dev.consistentcut.check.LifecycleChecks;
import dev.consistentcut.check.StepChecks;
import dev.consistentcut.check.Violation;
import dev.consistentcut.checkpoint.CheckpointCoordinator;
import dev.consistentcut.checkpoint.CheckpointStatus;
import dev.consistentcut.checkpoint.CheckpointStore;
import dev.consistentcut.checkpoint.CheckpointSummary;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.PhysicalGraph;
import dev.consistentcut.task.Action;
import dev.consistentcut.task.OperatorTask;
import dev.consistentcut.task.RunEvent;
import dev.consistentcut.task.RunObserver;
import dev.consistentcut.task.SourceTask;
import dev.consistentcut.task.Task;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.Executor;
import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;

/**
 * The coordinator side of a run, written once for both runtimes: the job's wiring (coordinator,
 * deployment, checks), the coordinator's steps ({@code TriggerCheckpoint},
 * {@code CompleteCheckpoint}, {@code AbortCheckpoint}, {@code DeclineCheckpoint},
 * {@code FailAndRestore}, the resume before the run), the checks that go with them and the final
 * checks and result. A runtime only schedules these steps: {@link SimulationRuntime} with its
 * seeded chooser, {@link ThreadedRuntime} with its threads. Tasks reach the coordinator through
 * the one gateway, {@link DriverGateway}.
 *
 * <p><b>Rules both runtimes share</b> (they differed while each had its own copy):
 * <ul>
 *   <li>A completion subsumes (aborts) every older pending checkpoint: those leave the
 *       {@linkplain #completable() complete-able set} at once, even if every task acknowledged
 *       them (the spec replay found the simulation offering them).
 *   <li>A failure loses one completion notification per transactional sink that a completed
 *       checkpoint has not yet reached when the failure strikes: one the coordinator still holds
 *       for it, or one {@linkplain #withholdNotification() withheld} because the failure was due at
 *       that completion ({@link #lostNotifications()}).
 *   <li>Declines ({@link CheckpointSettings#declineProbability()}) are drawn by the gateway in both runtimes.
 * </ul>
 *
 * <p><b>Threading contract.</b> Every method except those of the gateway and
 * {@link #completable()}'s set is called by one thread, the <em>coordinator thread</em>: the
 * simulation's only thread, or the thread running {@link ThreadedRuntime#run()} (which holds its
 * {@link StepOrdering} around each step). The gateway is called by task threads; what it shares
 * with the coordinator thread is the (thread-safe) coordinator, the concurrent complete-able set and
 * the trigger times. Not otherwise thread-safe.
 */
final class CheckpointDriver {

    final BarrierMode mode;
    final CheckpointSettings settings;
    final ObservationSettings observation;
    final PhysicalGraph graph;
    final CheckpointCoordinator coordinator;
    /** The job's store: its materialised uploads are the tasks', and it is told when the run ends. */
    private final CheckpointStore store;
    final Deployment deployment;
    final CutInvariants invariants;
    /** Every step of the run goes here: the checks that observe it, then {@link ObservationSettings#observer()}. */
    final RunObserver observer;
    final DriverGateway gateway;
    /** The transactional sinks' task ids (empty for a job without one). */
    final Set<String> sinks;
    /**
     * The step-by-step lifecycle checks (restore point, statuses, channel order), also observing
     * the run; with the ledgers only ({@link StepChecks#NONE} without: benchmarks).
     */
    final StepChecks lifecycle;
    /** Checkpoints whose store write failed, against the tolerable count of consecutive ones. */
    private final DeclinedCheckpoints declined;
    /** ThreadedRuntime: {@code lifecycle.check(c)} as each completion attempt ends (the simulation checks all after each step). */
    private final boolean checkEachCompletion;

    /** Trigger time per checkpoint, on the runtime's clock; written by the coordinator thread, read by task threads. */
    final Map<Long, Long> triggerTimes = new ConcurrentHashMap<>();
    /**
     * Checkpoints every task has acknowledged: {@code CompleteCheckpoint} is enabled for them.
     * Added to by task threads (through the gateway), taken by the coordinator thread; ascending.
     */
    private final NavigableSet<Long> completable = new ConcurrentSkipListSet<>();
    /**
     * What the run keeps of each completed checkpoint: a summary, not its state (the store keeps
     * the checkpoints it retains, the checks the one they compare with), so memory does not grow
     * with the number of checkpoints.
     */
    private final List<CheckpointSummary> completed = new ArrayList<>();
    /**
     * Every violation found so far; the runtime's own checks add theirs here too. Synchronized: the
     * completion checks may append from their own thread.
     */
    final List<Violation> violations = Collections.synchronizedList(new ArrayList<>());
    private long triggered;
    private int failures;
    private boolean failAfterCheckpointDone;
    /** The last completion's notifications were withheld: a failure is due before any sink takes them. */
    private boolean notificationWithheld;
    private int lostNotifications;
    private boolean duplicateSeen;

    /**
     * Wires the job and restores every task once (a store that already holds a checkpoint, a durable
     * one reopened, means: resume from it; a transactional sink then re-commits the resumed
     * checkpoint's transactions and aborts what a dead process left).
     *
     * @param clock the runtime's clock (simulation: the step counter; threads: {@link System#nanoTime()})
     * @param bufferSize records per network buffer ({@link Deployment})
     * @param bufferEncoding how the buffers carry their records ({@link Deployment})
     * @param lifecycleView wraps what {@link LifecycleChecks} read of the coordinator (a test seam; identity in a run)
     * @param checkEachCompletion see the field
     * @param gateway the runtime's choices for the gateway
     * @param completionChecker runs the check of each completed checkpoint's cut, one after another
     *     ({@link CompletionChecks}): the coordinator thread itself, or a thread of the runtime's
     * @param materialiser where the operator tasks materialise their changelogs (OperatorTask)
     * @param writer where the operator tasks write each checkpoint's changes (OperatorTask)
     */
    CheckpointDriver(JobGraph job, BarrierMode mode, CheckpointSettings settings, ObservationSettings observation, LongSupplier clock, int bufferSize,
                     BufferEncoding bufferEncoding,
                     UnaryOperator<LifecycleChecks.Coordinator> lifecycleView, boolean checkEachCompletion,
                     DriverGateway.Choices gateway, Executor completionChecker, Executor materialiser,
                     Executor writer) {
        this.mode = mode;
        this.settings = settings;
        this.observation = observation;
        this.graph = PhysicalGraph.of(job);
        this.checkEachCompletion = checkEachCompletion;
        Set<String> tasks = new LinkedHashSet<>();
        graph.tasks().forEach(t -> tasks.add(t.id()));
        Set<String> channels = new LinkedHashSet<>();
        graph.channels().forEach(c -> channels.add(c.id()));
        // A checkpoint of another parallelism is restored rescaled, at the start and after a failure.
        CheckpointStore store = Rescaling.restoringInto(settings.storeFactory().get(), job);
        this.coordinator = mode.oneInFlight()
                ? CheckpointCoordinator.forUnaligned(tasks, channels, store, clock)
                : CheckpointCoordinator.forAligned(tasks, channels, settings.maxConcurrentAligned(), store, clock);
        coordinator.setAbortsReachTasks(settings.abortsReachTasks());
        this.gateway = new DriverGateway(this, clock, gateway);
        this.deployment = new Deployment(graph, mode, this.gateway, this::tell, observation.trackProcessed(),
                settings.endOfInput(), bufferSize, bufferEncoding, materialiser, store.materialisedUploads(),
                writer);
        this.store = store;
        this.invariants = new CutInvariants(graph);
        this.declined = new DeclinedCheckpoints(settings.tolerableFailedCheckpoints(), observation.progress(), this::tell);
        this.lifecycle = observation.trackProcessed()
                ? new LifecycleChecks(lifecycleView.apply(LifecycleChecks.Coordinator.of(coordinator)), store, invariants,
                        mode.overtaking(), violations, deployment.channels.values(), checkEachCompletion)
                : StepChecks.NONE;
        // The checks see each step before the caller's observer (a trace), as they did when the
        // runtime called them: a violation is found whether or not anything else observes.
        // Without ledgers the step checks check nothing: they are left out of the per-record calls.
        this.observer = RunObserver.all(List.of(observation.trackProcessed() ? lifecycle : RunObserver.NONE,
                new CompletionChecks(invariants, coordinator, mode, observation.trackProcessed(), violations,
                        completionChecker),
                observation.observer()));
        deployment.restore(coordinator.latestCompleted());
        this.sinks = deployment.transactionalSinks();
        coordinator.setCompletionListeners(sinks);
        lifecycle.channels(deployment.channels.values()); // as restored (a resume's channel state)
    }

    /**
     * The tasks' and the parts' events, to {@link #observer}: the tasks are made before the checks
     * can be (the checks watch the tasks' channels).
     */
    private void tell(RunEvent event) {
        observer.on(event);
    }

    // ------------------------------------------------------------------ the coordinator's steps

    /**
     * Action {@code TriggerCheckpoint}, through the coordinator (every {@code n}-th a savepoint, as
     * {@link CheckpointSettings#isSavepoint} says).
     *
     * @return the new checkpoint's id; empty, having done nothing, when the coordinator refused
     */
    OptionalLong trigger() {
        long now = gateway.now();
        boolean savepoint = settings.isSavepoint(triggered + 1);
        OptionalLong triggeredId = coordinator.triggerCheckpoint(savepoint);
        if (triggeredId.isEmpty()) {
            return triggeredId;
        }
        long c = triggeredId.getAsLong();
        gateway.coordinatorChanged(); // before the runtime wakes the sources
        triggered++;
        triggerTimes.put(c, now);
        if (coordinator.allAcknowledged(c)) {
            completable.add(c); // every task had ended: their final states make it
        }
        observer.on(new RunEvent.TriggerCheckpoint(c, savepoint));
        return triggeredId;
    }

    /**
     * Action {@code CompleteCheckpoint(c)}, through the coordinator: the checkpoint is checked at
     * once, and every older checkpoint it subsumed leaves the complete-able set. The notifications
     * are the caller's next step: {@link #notifyCompletion} or {@link #withholdNotification}.
     *
     * @return the completed checkpoint; empty when it was aborted meanwhile or its store write
     *     failed (a declined checkpoint: the coordinator aborted it)
     */
    Optional<CompletedCheckpoint> complete(long c) {
        completable.remove(c);
        Optional<CompletedCheckpoint> done;
        try {
            done = coordinator.completeCheckpoint(c);
        } catch (java.io.UncheckedIOException e) {
            declined.declined(c, e); // the coordinator aborted it: AbortCheckpoint(c)
            checkCompletion(c);
            return Optional.empty();
        }
        if (done.isEmpty()) {
            checkCompletion(c);
            return done; // aborted meanwhile
        }
        CompletedCheckpoint cp = done.get();
        declined.completed();
        completed.add(CheckpointSummary.of(cp));
        // The completion subsumed (aborted) every older pending checkpoint: those are no longer
        // completable, even if every task acknowledged them (found by the spec replay).
        completable.removeIf(id -> coordinator.status(id) != CheckpointStatus.PENDING);
        observation.onCheckpoint().accept(cp);
        observer.on(new RunEvent.CompleteCheckpoint(cp)); // the checks observe it: LifecycleChecks, CompletionChecks
        return done;
    }

    private void checkCompletion(long c) {
        if (checkEachCompletion) {
            lifecycle.check(c);
        }
    }

    /** After {@link #complete}: {@code NotifyCheckpointComplete(t, c)} is now enabled for every sink. */
    void notifyCompletion(long c) {
        coordinator.notifyTasksOfCompletion(c);
    }

    /**
     * After {@link #complete}, instead of {@link #notifyCompletion}: a failure is due before any sink
     * hears of the completion; that failure loses every sink's notification.
     */
    void withholdNotification() {
        notificationWithheld = true;
    }

    /** Action {@code AbortCheckpoint(c)}, through the coordinator. */
    void abort(long c) {
        if (coordinator.abortCheckpoint(c)) {
            completable.remove(c);
            observer.on(new RunEvent.AbortCheckpoint(c));
        }
    }

    /**
     * Task {@code task} declines checkpoint {@code c} ({@code AbortCheckpoint} with its decliner);
     * called by that task's thread, through the gateway.
     *
     * @return whether the coordinator aborted it (false: it had left flight already)
     */
    boolean decline(String task, long c) {
        boolean d = coordinator.declineCheckpoint(task, c);
        if (d) {
            completable.remove(c);
            observer.on(new RunEvent.AbortCheckpoint(c, task));
        }
        return d;
    }

    /** Aborts the checkpoints older than {@link CheckpointSettings#checkpointTimeout()} (if one is set). */
    void abortExpired() {
        if (settings.checkpointTimeout() > 0) {
            ExpiredAborts.abort(coordinator, settings.checkpointTimeout(), triggerTimes.keySet(), observer);
        }
    }

    /**
     * Action {@code FailAndRestore}: the coordinator restores the latest completed checkpoint and so
     * does every task (sinks re-commit its transactions). The threaded runtime calls it with every
     * task thread stopped.
     *
     * @param at where the run is, for the progress line ("" or " at step n")
     * @return the restored checkpoint (empty: the initial state)
     */
    Optional<CompletedCheckpoint> failAndRestore(String at) {
        for (String t : sinks) {
            if (notificationWithheld || coordinator.nextCompleteNotificationFor(t).isPresent()) {
                lostNotifications++;
            }
        }
        notificationWithheld = false;
        Optional<CompletedCheckpoint> latest = coordinator.failAndRestore();
        gateway.coordinatorChanged();
        completable.clear();
        deployment.restore(latest); // sinks re-commit the restored checkpoint's transactions
        failures++;
        if (failAfterCheckpointDue()) {
            failAfterCheckpointDone = true;
        }
        observation.progress().accept("failure " + failures + at + ": restored "
                + latest.map(c -> "checkpoint " + c.id()).orElse("the initial state"));
        // The lifecycle checks observe it: the failure, every status, every channel as restored.
        observer.on(new RunEvent.FailAndRestore(latest.map(CompletedCheckpoint::id).orElse(0L),
                deployment.lastRecommitted()));
        return latest;
    }

    /** {@link CheckpointSettings#failAfterCheckpoint()} is set and its failure has not struck yet. */
    boolean failAfterCheckpointPending() {
        return settings.failAfterCheckpoint() > 0 && !failAfterCheckpointDone;
    }

    /** The failure after the {@link CheckpointSettings#failAfterCheckpoint()}-th completion is due now. */
    boolean failAfterCheckpointDue() {
        return failAfterCheckpointPending() && completed.size() >= settings.failAfterCheckpoint();
    }

    // ------------------------------------------------------------------ checks and the result

    /** {@code NoDuplicateOutputInv}, after each step that commits (a notification, a restore); reported once. */
    void checkNoDuplicateOutput() {
        if (!duplicateSeen && checksOutput() && exactlyOnce()) {
            List<Violation> found = invariants.noDuplicateOutput(deployment.committedOutput());
            violations.addAll(found);
            duplicateSeen = !found.isEmpty(); // committed output is never taken back: reported once
        }
    }

    private boolean checksOutput() {
        return !sinks.isEmpty();
    }

    private boolean exactlyOnce() {
        return mode.deliveryGuarantee() == DeliveryGuarantee.EXACTLY_ONCE;
    }

    /**
     * The checks of a finished run: {@code ExactlyOnceInv} (or {@code AtLeastOnceInv}) on the
     * ledgers (when tracked) and, with a transactional sink, the committed output exactly once (or,
     * at-least-once mode, at least once).
     *
     * @param duplicates also {@code NoDuplicateOutputInv} (for a runtime that did not check it step by
     *     step: committed output only grows, so no duplicate now means none at any moment)
     */
    List<Violation> finalChecks(boolean duplicates) {
        List<Violation> out = new ArrayList<>();
        if (observation.trackProcessed()) {
            out.addAll(invariants.finalState(mode.name(), deployment.ledgers()));
        }
        if (checksOutput()) {
            var output = deployment.committedOutput(); // per sink, each committed record id with its count
            if (!exactlyOnce()) {
                out.addAll(invariants.outputAtLeastOnce(output));
                return out;
            }
            if (duplicates) {
                out.addAll(invariants.noDuplicateOutput(output));
            }
            out.addAll(invariants.outputExactlyOnce(output));
        }
        return out;
    }

    /** The run's result, from the runtime's count of steps and time and the violations it reports. */
    RunResult result(String runtime, boolean finished, long steps, List<Violation> all, long time) {
        store.endRun(); // what a materialisation uploaded and no checkpoint took over is deleted
        return new RunResult(mode.name(), runtime, finished, completed, abortedCount(), failures, steps, all,
                observation.trackProcessed(), deployment.ledgers(), time, completedWhere(coordinator::switched),
                completedWhere(coordinator::isSavepoint));
    }

    /**
     * Checkpoints that ended ABORTED, whatever the reason (timeout, random abort, decline, failure,
     * or subsumed by a newer completed one), as the coordinator records them.
     */
    private int abortedCount() {
        return (int) triggerTimes.keySet().stream()
                .filter(id -> coordinator.status(id) == CheckpointStatus.ABORTED).count();
    }

    /** The completed checkpoints for which {@code p} holds (switched to unaligned; savepoints). */
    private Set<Long> completedWhere(java.util.function.LongPredicate p) {
        Set<Long> out = new TreeSet<>();
        completed.forEach(cp -> {
            if (p.test(cp.id())) {
                out.add(cp.id());
            }
        });
        return out;
    }

    // ------------------------------------------------------------------ state the runtimes read

    /** The complete-able checkpoints, ascending; the coordinator thread takes them, task threads add. */
    NavigableSet<Long> completable() {
        return completable;
    }

    void addCompletable(long c) {
        completable.add(c);
    }

    long triggeredCount() {
        return triggered;
    }

    int failures() {
        return failures;
    }

    List<CheckpointSummary> completed() {
        return completed;
    }

    int lostNotifications() {
        return lostNotifications;
    }

    Task task(String id) {
        Task t = deployment.tasks.get(id);
        if (t == null) {
            throw new IllegalArgumentException("unknown task instance '" + id + "'");
        }
        return t;
    }

    OperatorTask operatorTask(String id) {
        return (OperatorTask) task(id);
    }

    SourceTask sourceTask(String id) {
        return (SourceTask) task(id);
    }

    Channel channel(String id) {
        Channel c = deployment.channels.get(id);
        if (c == null) {
            throw new IllegalArgumentException("unknown channel '" + id + "'");
        }
        return c;
    }
}
