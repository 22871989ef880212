package dev.consistentcut.runtime;

import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.causal.VectorClocks;
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
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The threaded runtime: one thread per task instance, running the same task classes as the
 * simulation, and a coordinator thread (the thread that calls {@link #run()}) that triggers a
 * checkpoint every {@link RunOptions#checkpointInterval()} nanoseconds, completes checkpoints,
 * aborts those older than {@link RunOptions#checkpointTimeout()}, injects the failure after the
 * {@link RunOptions#failAfterCheckpoint()}-th completed checkpoint, and detects termination.
 *
 * <p><b>Waiting, not spinning.</b> A task thread with no enabled step waits on its {@link Wakeup};
 * each channel wakes its receiver when an element arrives and its sender when a record leaves (the
 * channel's listeners), and a trigger wakes the sources. Backpressure is therefore a sender
 * waiting for room. A slow operator ({@link dev.consistentcut.operator.Operator#delayNanosPerRecord()})
 * parks its thread after each record.
 *
 * <p><b>Network buffers</b> (issue 16): channels carry records in buffers of
 * {@link RunOptions#bufferSize()} records (a quarter of a channel's capacity by default). A task
 * hands a buffer over when it is full, before any event it sends, when it has no step enabled
 * (before it waits), and at the latest {@link RunOptions#bufferTimeout()} after its last flush
 * (checked every few steps, Flink's output flusher). While tracing, a flush is done under the
 * trace lock like a step (it is none: a channel's contents include its open buffer).
 *
 * <p><b>Completion.</b> A task whose acknowledgement makes a checkpoint complete-able hands its id
 * to the coordinator thread, which calls {@code completeCheckpoint} and checks the checkpoint
 * against {@code ConsistentCutInv} (and {@code AlignedNoChannelStateInv} when aligned). So the
 * store is written by the coordinator thread only. After each of its coordinator steps it checks
 * issue 10's restore-point and status invariants, and after each restore every channel's
 * {@code FifoChannelInv} (and {@code BarrierOvertakesInv} when unaligned): {@link LifecycleChecks}.
 *
 * <p><b>Termination</b>: every source exhausted, every channel empty, nothing in flight or waiting
 * for completion, and no task in the middle of a step. The coordinator thread reads the counters
 * of started and finished steps before and after inspecting the rest; if no step was running at
 * the first read and none started until the last, what it inspected was a quiescent state. It then
 * stops the task threads and checks {@code ExactlyOnceInv} on their final ledgers.
 *
 * <p><b>Stopping threads</b> (termination, {@code FailAndRestore}): {@link Wakeup#stop()}, then
 * {@code join}. Threads are not interrupted, because an interrupt closes any
 * {@code FileChannel} the thread is using (a trace-writing {@link ActionListener}, say), and
 * every step is short anyway.
 *
 * <p><b>Threading contract.</b> {@link #run()} is called once, by one thread, which becomes the
 * coordinator thread. {@link #failAndRestore()} may be called from any other thread while
 * {@code run()} runs: it asks the coordinator thread to do it and waits until it is done.
 */
public final class ThreadedRuntime implements JobRuntime {

    private static final long PROGRESS_INTERVAL = TimeUnit.SECONDS.toNanos(1);

    private final BarrierMode mode;
    private final RunOptions options;
    private final PhysicalGraph graph;
    private final CheckpointCoordinator coordinator;
    private final Deployment deployment;
    private final CutInvariants invariants;
    /** Checkpoints whose store write failed (issue 17); coordinator thread only. */
    private final DeclinedCheckpoints declined;
    private final ActionListener listener;
    /**
     * While a listener is installed (a trace is recorded), held around every step together with its
     * listener call, task steps and coordinator steps alike, so that the order of the calls is an
     * order in which the steps happened one at a time (issue 5). Tracing serializes the run; it is
     * never taken without a listener.
     */
    private final ReentrantLock traceLock = new ReentrantLock();
    private final boolean tracing;
    /**
     * A causal trace (issue 13): every task and the coordinator log their own events, stamped with
     * vector clocks that the channels and the coordinator carry ({@link VectorClocks}); no trace
     * lock then, so the traced run races as an untraced one. Null: none (the trace lock, if tracing).
     */
    private VectorClocks clocks;

    private final Map<Long, Long> triggerTimes = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<Long> completions = new ConcurrentLinkedQueue<>();
    /** Steps of workers that have been stopped (a failure restarts them); the live ones count in {@link Worker}. Coordinator thread only. */
    private long stepsOfStoppedWorkers;
    /**
     * Bumped right after every change of the coordinator's state that can give a task a barrier
     * to inject or news to take (trigger, acknowledgement, abort, decline, completion, restore),
     * before the tasks are woken. The gateway answers "nothing for you" without the
     * coordinator's lock while this has not moved since the task last got that answer from the
     * coordinator (issue 16: one lock per record and task was the hot path's bottleneck).
     */
    private volatile long coordinatorGeneration;
    private final AtomicLong sinkRecords = new AtomicLong();
    private final AtomicReference<Throwable> taskFailure = new AtomicReference<>();
    /** True on this runtime's task threads. */
    private final ThreadLocal<Boolean> onTaskThread = ThreadLocal.withInitial(() -> false);
    /** Set by the coordinator thread once every source is exhausted: idle tasks then wake it up. */
    private volatile boolean endgame;

    private final ReentrantLock control = new ReentrantLock();
    private final Condition coordinatorWake = control.newCondition();
    private final Condition failureDone = control.newCondition();
    // Guarded by control.
    private boolean wakeRequested;
    private int failuresRequested;
    private int failuresPerformed;
    private Thread coordinatorThread;

    // Coordinator thread only.
    private final Map<String, Worker> workers = new LinkedHashMap<>();
    private final List<CompletedCheckpoint> completed = new ArrayList<>();
    private final List<Violation> violations = new ArrayList<>();
    /** Issue 10's step-by-step checks (with the ledgers only); null when off. Coordinator thread only. */
    private LifecycleChecks lifecycle;
    private int failures;
    private boolean failAfterCheckpointDone;
    private long triggeredCount;
    /** Coordinator thread only: checkpoints whose alignment timeout has woken the tasks. */
    private final Set<Long> timeoutsWoken = new java.util.HashSet<>();
    /** Coordinator thread only: the abort count when the tasks were last woken for news. */
    private long abortsSeen;
    /** The transactional sinks' task ids (empty for a job without one). */
    private final Set<String> sinks;
    /** Coordinator thread only: completion notifications lost to a failure. */
    private int lostNotifications;

    public ThreadedRuntime(JobGraph job, BarrierMode mode, RunOptions options) {
        this.mode = mode;
        this.options = options;
        this.graph = PhysicalGraph.of(job);
        this.listener = options.listener();
        this.tracing = listener != ActionListener.NONE;
        Set<String> tasks = new LinkedHashSet<>();
        graph.tasks().forEach(t -> tasks.add(t.id()));
        Set<String> channels = new LinkedHashSet<>();
        graph.channels().forEach(c -> channels.add(c.id()));
        CheckpointStore store = options.storeFactory().get();
        this.coordinator = mode.oneInFlight()
                ? CheckpointCoordinator.forUnaligned(tasks, channels, store, System::nanoTime)
                : CheckpointCoordinator.forAligned(tasks, channels, options.maxConcurrentAligned(),
                        store, System::nanoTime);
        coordinator.setAbortsReachTasks(options.abortsReachTasks());
        this.deployment = new Deployment(graph, mode, new Gateway(), listener, options.trackProcessed(),
                options.endOfInput(), options.bufferSize());
        this.invariants = new CutInvariants(graph);
        this.declined = new DeclinedCheckpoints(options.tolerableFailedCheckpoints(), options.progress(), options.listener());
        this.lifecycle = options.trackProcessed()
                ? new LifecycleChecks(coordinator, store, invariants, mode.overtaking(), violations) : null;
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

    /**
     * Records causally instead of under the trace lock (issue 13): each thread's events go to its
     * process's log in {@code c} (the task ids and {@link VectorClocks#COORDINATOR}), with the
     * clocks every channel and the coordinator carry. Call before {@link #run()}.
     */
    public void recordCausally(VectorClocks c) {
        this.clocks = java.util.Objects.requireNonNull(c, "clocks");
        for (PhysicalGraph.ChannelSpec ch : graph.channels()) {
            Channel channel = deployment.channels.get(ch.id());
            channel.setClock(c.channel(channel.capacity()));
        }
    }

    /** The processes of a causal trace of this runtime's job: every task, then the coordinator. */
    public List<String> processes() {
        List<String> p = new ArrayList<>();
        graph.tasks().forEach(t -> p.add(t.id()));
        p.add(VectorClocks.COORDINATOR);
        return p;
    }

    /** Runs the job until it terminates; the calling thread is the coordinator thread. Call once. */
    @Override
    public RunResult run() {
        control.lock();
        try {
            if (coordinatorThread != null) {
                throw new IllegalStateException("ThreadedRuntime.run() may be called once");
            }
            coordinatorThread = Thread.currentThread();
        } finally {
            control.unlock();
        }
        if (clocks != null) {
            clocks.bind(VectorClocks.COORDINATOR);
        }
        long start = System.nanoTime();
        long nextTrigger = start + options.checkpointInterval();
        long nextProgress = start + PROGRESS_INTERVAL;
        long lastSinkRecords = 0;
        long lastProgress = start;
        startWorkers();
        try {
            while (true) {
                Throwable f = taskFailure.get();
                if (f != null) {
                    throw new IllegalStateException(f.getMessage(), f);
                }
                for (Long c; (c = completions.poll()) != null; ) {
                    long id = c;
                    coordinatorStep(() -> completeCheckpoint(id));
                }
                if (failureDue()) {
                    failAndRestoreNow();
                }
                performRequestedFailures();
                if (options.checkpointTimeout() > 0) {
                    coordinatorStep(() -> ExpiredAborts.abort(coordinator, options.checkpointTimeout(),
                            triggerTimes.keySet(), listener));
                }
                long now = System.nanoTime();
                boolean canTrigger = shouldTrigger();
                if (canTrigger && now >= nextTrigger) {
                    coordinatorStep(this::triggerCheckpoint);
                    nextTrigger = now + options.checkpointInterval();
                    canTrigger = shouldTrigger();
                }
                if (now >= nextProgress) {
                    long sink = sinkRecords.get();
                    double seconds = (now - lastProgress) / 1e9;
                    options.progress().accept(String.format("%.1f s: sinks received %d records (%.0f records/s)",
                            (now - start) / 1e9, sink, (sink - lastSinkRecords) / seconds));
                    lastSinkRecords = sink;
                    lastProgress = now;
                    nextProgress = now + PROGRESS_INTERVAL; // no catch-up lines after a stall
                }
                long aborts = coordinator.abortCount();
                if (aborts != abortsSeen) {
                    abortsSeen = aborts; // tasks have news (NotifyCheckpointAborted): wake them
                    workers.values().forEach(w -> w.wakeup.signal());
                }
                endgame = deployment.sourcesExhausted();
                if (!failurePending() && terminated()) {
                    break;
                }
                long until = canTrigger ? Math.min(nextTrigger, nextProgress) : nextProgress;
                until = Math.min(until, wakeForAlignmentTimeouts(now));
                awaitWork(until - System.nanoTime());
            }
        } finally {
            stopWorkers();
            if (clocks != null) {
                clocks.joinAll(); // what the coordinator records now (RunEnded) comes after everything
            }
            control.lock();
            try {
                coordinatorThread = null;
                failureDone.signalAll();
            } finally {
                control.unlock();
            }
        }
        if (options.trackProcessed()) {
            violations.addAll(invariants.finalState(mode.name(), deployment.ledgers()));
        }
        if (!sinks.isEmpty() && !"at-least-once".equals(mode.name())) {
            // Committed output only grows, so no duplicate now means none at any moment.
            Map<String, Map<dev.consistentcut.message.RecordId, Integer>> output = deployment.committedOutput();
            violations.addAll(invariants.noDuplicateOutput(output));
            violations.addAll(invariants.outputExactlyOnce(output));
        }
        return new RunResult(mode.name(), "threads", true, completed, abortedCount(), failures,
                stepsFinished() + triggeredCount + completed.size(), violations, options.trackProcessed(),
                deployment.ledgers(), System.nanoTime() - start, switchedIds(), savepointIds());
    }

    private long triggeredSoFar() {
        return triggeredCount;
    }

    /**
     * Alternating mode, the alignment timer (Flink registers one per checkpoint on the task's
     * mailbox): once a checkpoint in flight is older than the timeout, every operator task is
     * woken once, so that an idle one (blocked by alignment or backpressure) sees its
     * {@code TimeoutAlignment} enabled. Coordinator thread only.
     *
     * @return the next such deadline still to come (Long.MAX_VALUE if none)
     */
    private long wakeForAlignmentTimeouts(long now) {
        long timeout = mode.alignedTimeoutMillis();
        if (timeout < 0) {
            return Long.MAX_VALUE;
        }
        long next = Long.MAX_VALUE;
        for (long c : coordinator.inFlight()) {
            Long t = triggerTimes.get(c);
            if (t == null || timeoutsWoken.contains(c)) {
                continue;
            }
            long deadline = t + TimeUnit.MILLISECONDS.toNanos(timeout);
            if (now >= deadline) {
                timeoutsWoken.add(c);
                for (OperatorTask o : deployment.operators) {
                    Worker w = workers.get(o.id());
                    if (w != null) {
                        w.wakeup.signal();
                    }
                }
            } else {
                next = Math.min(next, deadline);
            }
        }
        return next;
    }

    private boolean failurePending() {
        return options.failAfterCheckpoint() > 0 && !failAfterCheckpointDone;
    }

    private boolean failureDue() {
        return failurePending() && completed.size() >= options.failAfterCheckpoint();
    }

    /** Triggers while the coordinator allows it, and the job still reads input or a failure is still to come. */
    private boolean shouldTrigger() {
        return coordinator.canTrigger()
                && (!deployment.sourcesExhausted() || failurePending() || !deployment.sinksSettled());
    }

    private long stepsFinished() {
        long n = stepsOfStoppedWorkers;
        for (Worker w : workers.values()) {
            n += w.finished;
        }
        return n;
    }

    /**
     * Quiescence: every worker between steps at the first look (its finished count, then its
     * started count, equal), nothing left to do, and no worker started a step since.
     */
    private boolean terminated() {
        long started = 0;
        for (Worker w : workers.values()) {
            long f = w.finished;
            long s = w.started;
            if (s != f) {
                return false;
            }
            started += s;
        }
        boolean quiet = completions.isEmpty() && coordinator.inFlight().isEmpty()
                && deployment.sourcesExhausted() && deployment.channelsEmpty() && deployment.allEnded()
                && coordinator.abortCount() == abortsSeen && noAbortNews() && deployment.sinksSettled();
        if (!quiet) {
            return false;
        }
        long again = 0;
        for (Worker w : workers.values()) {
            again += w.started;
        }
        return again == started;
    }

    /** No task has an abort notification still to take (else the run is not over). */
    private boolean noAbortNews() {
        for (OperatorTask o : deployment.operators) {
            if (!o.ended() && coordinator.nextAbortNotificationFor(o.id()).isPresent()) {
                return false;
            }
        }
        return true;
    }

    private void awaitWork(long nanos) {
        control.lock();
        try {
            long left = nanos;
            while (!wakeRequested && left > 0) {
                left = coordinatorWake.awaitNanos(left);
            }
            wakeRequested = false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("coordinator thread interrupted", e);
        } finally {
            control.unlock();
        }
    }

    /** A coordinator step; while tracing, under {@link #traceLock}. */
    private void coordinatorStep(Runnable step) {
        if (clocks != null) {
            clocks.coordinatorStep(step);
        } else if (!tracing) {
            step.run();
        } else {
            traceLock.lock();
            try {
                step.run();
            } finally {
                traceLock.unlock();
            }
        }
        bumpGeneration(); // aborts, completions: before the loop wakes the tasks with the news
        if (lifecycle != null) {
            lifecycle.check(0); // the pending checkpoints' statuses (completions name theirs), the restore point
        }
    }

    /** See {@link #coordinatorGeneration}; any thread. */
    private void bumpGeneration() {
        synchronized (generationLock) {
            coordinatorGeneration = coordinatorGeneration + 1;
        }
    }

    private final Object generationLock = new Object();

    private void wakeCoordinator() {
        control.lock();
        try {
            wakeRequested = true;
            coordinatorWake.signal();
        } finally {
            control.unlock();
        }
    }

    /** Action {@code TriggerCheckpoint}, through the coordinator; wakes the sources to inject the barrier. */
    private void triggerCheckpoint() {
        long now = System.nanoTime();
        boolean savepoint = options.isSavepoint(triggeredSoFar() + 1);
        OptionalLong c = coordinator.triggerCheckpoint(savepoint);
        if (c.isEmpty()) {
            return;
        }
        bumpGeneration(); // before the sources are woken
        triggeredCount++;
        if (lifecycle != null) {
            lifecycle.triggered(c.getAsLong());
        }
        triggerTimes.put(c.getAsLong(), now);
        if (coordinator.allAcknowledged(c.getAsLong())) {
            completions.add(c.getAsLong()); // every task had ended: their final states make it
        }
        if (listener != ActionListener.NONE) {
            listener.onAction(Action.TRIGGER_CHECKPOINT.specName(), savepoint
                    ? Map.of("checkpoint", c.getAsLong(), "savepoint", true) : Map.of("checkpoint", c.getAsLong()));
        }
        for (SourceTask s : deployment.sources) {
            workers.get(s.id()).wakeup.signal();
        }
    }

    /** Action {@code CompleteCheckpoint}, through the coordinator; the checkpoint is checked at once. */
    private void completeCheckpoint(long c) {
        Optional<CompletedCheckpoint> done;
        try {
            done = coordinator.completeCheckpoint(c);
        } catch (java.io.UncheckedIOException e) {
            declined.declined(c, e); // the coordinator aborted it: AbortCheckpoint(c)
            if (lifecycle != null) {
                lifecycle.check(c);
            }
            return;
        }
        if (done.isEmpty()) {
            if (lifecycle != null) {
                lifecycle.check(c);
            }
            return;
        }
        CompletedCheckpoint cp = done.get();
        declined.completed();
        completed.add(cp);
        if (lifecycle != null) {
            lifecycle.completed(cp.id());
            lifecycle.check(c);
        }
        violations.addAll(mode.alignedTimeoutMillis() >= 0
                ? invariants.completedAlternating(cp, coordinator.switched(c), coordinator.isSavepoint(c), options.trackProcessed())
                : invariants.completedCheckpoint(cp, mode.name(), mode.overtaking(), options.trackProcessed()));
        options.onCheckpoint().accept(cp);
        if (listener != ActionListener.NONE) {
            listener.onAction(Action.COMPLETE_CHECKPOINT.specName(), Map.of("checkpoint", c));
        }
        if (failureDue()) {
            // "--fail-after-checkpoint N" strikes between CompleteCheckpoint(N) and the sinks'
            // NotifyCheckpointComplete: the notification is lost and recovery must re-commit.
            lostNotifications += sinks.size();
            return;
        }
        coordinator.notifyTasksOfCompletion(c);
        for (String t : sinks) {
            workers.get(t).wakeup.signal(); // an ended sink waits for exactly this
        }
    }

    /** Completion notifications lost to failures (the injected failure after checkpoint N strikes before them). */
    public int lostNotifications() {
        return lostNotifications;
    }

    /**
     * {@inheritDoc}
     *
     * <p>Asks the coordinator thread to fail and restore the job, and waits until it has.
     *
     * @throws IllegalStateException if {@link #run()} is not running, or if called from a task thread
     */
    @Override
    public void failAndRestore() {
        control.lock();
        try {
            if (coordinatorThread == null) {
                throw new IllegalStateException("failAndRestore needs a running run()");
            }
            if (Thread.currentThread() == coordinatorThread) {
                throw new IllegalStateException("the coordinator thread fails the job itself; do not call failAndRestore from it");
            }
            if (onTaskThread.get()) {
                throw new IllegalStateException("a task thread cannot fail the job: it would wait for itself to stop");
            }
            int target = ++failuresRequested;
            wakeRequested = true;
            coordinatorWake.signal();
            while (failuresPerformed < target && coordinatorThread != null) {
                failureDone.awaitUninterruptibly();
            }
        } finally {
            control.unlock();
        }
    }

    private void performRequestedFailures() {
        int requested;
        control.lock();
        try {
            requested = failuresRequested - failuresPerformed;
        } finally {
            control.unlock();
        }
        for (int i = 0; i < requested; i++) {
            failAndRestoreNow();
            control.lock();
            try {
                failuresPerformed++;
                failureDone.signalAll();
            } finally {
                control.unlock();
            }
        }
    }

    /** {@code FailAndRestore} on the coordinator thread: stop every task, restore, restart. */
    private void failAndRestoreNow() {
        stopWorkers();
        if (clocks != null) {
            clocks.joinAll(); // every task has stopped: the failure comes after all they did
        }
        Optional<CompletedCheckpoint> latest = coordinator.failAndRestore();
        bumpGeneration();
        completions.clear();
        deployment.restore(latest); // sinks re-commit the restored checkpoint's transactions
        if (lifecycle != null) {
            lifecycle.failed();
            lifecycle.checkAll();
            lifecycle.channels(deployment.channels.values());
        }
        failures++;
        if (failureDue()) {
            failAfterCheckpointDone = true;
        }
        endgame = false;
        options.progress().accept("failure " + failures + ": restored "
                + latest.map(c -> "checkpoint " + c.id()).orElse("the initial state"));
        if (listener != ActionListener.NONE) {
            listener.onAction(Action.FAIL_AND_RESTORE.specName(), SimulationRuntime.restoreEvent(latest, deployment));
        }
        if (clocks != null) {
            clocks.inheritAll(); // and everything the restarted tasks do comes after it
        }
        startWorkers();
    }

    private void startWorkers() {
        for (Worker w : workers.values()) {
            stepsOfStoppedWorkers += w.finished;
        }
        workers.clear();
        for (Task t : deployment.tasks.values()) {
            workers.put(t.id(), new Worker(t));
        }
        // Channels are idle here: setting their listeners is allowed.
        for (PhysicalGraph.ChannelSpec c : graph.channels()) {
            Wakeup receiver = workers.get(c.receiver()).wakeup;
            Wakeup sender = workers.get(c.sender()).wakeup;
            deployment.channels.get(c.id()).setListeners(receiver::signal, sender::signal);
        }
        for (Worker w : workers.values()) {
            w.thread.start();
        }
    }

    private void stopWorkers() {
        for (Worker w : workers.values()) {
            // The request and its wake-up in one step: a flag beside the wake-up lost stops (Wakeup).
            w.wakeup.stop();
            LockSupport.unpark(w.thread);
        }
        for (Worker w : workers.values()) {
            boolean interrupted = false;
            while (true) {
                try {
                    w.thread.join();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
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

    // ------------------------------------------------------------------ for tests

    public CheckpointCoordinator coordinator() {
        return coordinator;
    }

    /** A source task, for inspection after {@link #run()} returned (or by a trace recorder, inside a step). */
    public SourceTask sourceTask(String id) {
        return (SourceTask) deployment.tasks.get(id);
    }

    /** A task, for inspection after {@link #run()} returned. */
    public OperatorTask operatorTask(String id) {
        return (OperatorTask) deployment.tasks.get(id);
    }

    public Channel channel(String id) {
        return deployment.channels.get(id);
    }

    /**
     * The most steps a worker performs per choice (issue 16): a chosen {@code ProcessRecord} or
     * {@code EmitRecord} is repeated while it stays enabled ({@link Task#performAgain}), so other
     * enabled steps wait at most this many records (tens of microseconds). A barrier at an
     * input's head, also an overtaking one, ends the run at once.
     */
    static final int RECORDS_PER_CHOICE = 128;

    /**
     * The records a step of {@code task} may take in a row once chosen: 1 for an operator that
     * costs time per record (its pause follows each record), else {@link #RECORDS_PER_CHOICE}.
     */
    static int recordsPerChoice(Task task) {
        return task instanceof OperatorTask o && o.operator().delayNanosPerRecord() > 0 ? 1 : RECORDS_PER_CHOICE;
    }

    /**
     * Performs the chosen step {@code s}, then, for {@code recordsPerChoice > 1}, repeats it while it
     * stays enabled ({@link Task#performAgain}), up to {@code recordsPerChoice} steps in all.
     * Package-private and static so that the bound can be tested without threads.
     *
     * @return the steps performed (1 to {@code recordsPerChoice})
     */
    static int performChosen(Task task, Step s, int recordsPerChoice) {
        task.perform(s);
        return recordsPerChoice > 1 ? 1 + task.performAgain(s, recordsPerChoice - 1) : 1;
    }

    /** One task's thread: performs its enabled steps, waits when there are none. */
    private final class Worker implements Runnable {
        final Task task;
        final Wakeup wakeup = new Wakeup();
        final Thread thread;
        final boolean sink;
        final boolean source;
        // Stopped by wakeup.stop(), not by a flag of its own: see Wakeup for the stop a flag lost.
        /** Steps started and finished by this worker (written by its thread only; read by the coordinator thread). */
        volatile long started;
        volatile long finished;
        private int next;
        /** Steps since the buffer timeout was last looked at; the time of the last flush. */
        private int sinceTimeCheck;
        private long lastFlush = System.nanoTime();
        private final long bufferTimeout = options.bufferTimeout();
        /** {@link #recordsPerChoice(Task)} of this worker's task. */
        private final int recordsPerChoice;

        /**
         * Causal trace: every channel this task sends or receives on, in {@link Channel#STEP_ORDER};
         * each step holds their locks (see {@link #performStep}). Empty otherwise.
         */
        private final List<Channel> stepChannels = new ArrayList<>();

        Worker(Task task) {
            this.task = task;
            if (clocks != null) {
                for (PhysicalGraph.ChannelSpec c : graph.channels()) {
                    if (c.sender().equals(task.id()) || c.receiver().equals(task.id())) {
                        stepChannels.add(deployment.channels.get(c.id()));
                    }
                }
                stepChannels.sort(Channel.STEP_ORDER);
            }
            this.sink = task instanceof OperatorTask o && o.isSink();
            this.source = task instanceof SourceTask;
            this.recordsPerChoice = recordsPerChoice(task);
            this.thread = new Thread(this, "task-" + task.id());
            this.thread.setDaemon(true);
        }

        @Override
        public void run() {
            onTaskThread.set(true);
            if (clocks != null) {
                clocks.bind(task.id());
            }
            List<Step> steps = new ArrayList<>();
            try {
                // Look at the stop and clear the wake-up in one step: apart, a stop between them was lost.
                while (wakeup.clearUnlessStopped()) {
                    Step s = performStep(steps);
                    int performed = this.performed;
                    if (s == null) {
                        flush(); // nothing else to do: hand the part-full buffers over before waiting
                        if (endgame) {
                            wakeCoordinator();
                        }
                        wakeup.await();
                        continue;
                    }
                    if (bufferTimeout == 0) {
                        flush();
                    } else if (++sinceTimeCheck >= 16) {
                        sinceTimeCheck = 0;
                        long now = System.nanoTime();
                        if (now - lastFlush >= bufferTimeout) {
                            flush();
                        }
                    }
                    if (s.action() == Action.PROCESS_RECORD) {
                        if (sink) {
                            sinkRecords.addAndGet(performed);
                        }
                        pause(((OperatorTask) task).operator().delayNanosPerRecord());
                    } else if (source && ((SourceTask) task).exhausted()) {
                        wakeCoordinator(); // the endgame may have begun
                    }
                }
            } catch (Throwable t) {
                taskFailure.compareAndSet(null, new IllegalStateException("thread " + thread.getName() + " failed: " + t, t));
                wakeCoordinator();
            }
        }

        /** Steps the last {@link #performStep} performed: the one chosen and its repetitions. */
        private int performed;

        /**
         * Chooses one enabled step and performs it; null, doing nothing, when none is enabled. While
         * tracing, choice and step are one unit under {@link #traceLock}; while tracing causally,
         * under the locks of this task's channels ({@link #stepChannels}): the other ends see
         * the step's operations on them as one, as the spec's step is. Otherwise a step that
         * operates on several channels (a barrier injected on three outputs, a record taken and
         * its result put, a cancellation and then a barrier on one output) publishes its event's
         * number with its first operation and merges clocks at later ones, and when the other end
         * of the first acted on it meanwhile and that came back to a later one, the event's clock
         * said it came after what came after it: a cycle (and a run that no sequence of the
         * spec's atomic steps explains). docs/trace-validation.md, "Causal traces".
         */
        private Step performStep(List<Step> steps) {
            boolean locked = tracing && clocks == null;
            if (locked) {
                traceLock.lock();
            }
            for (Channel c : stepChannels) {
                c.lockForStep();
            }
            try {
                steps.clear();
                task.enabledSteps(steps);
                if (steps.isEmpty()) {
                    return null;
                }
                // Sources list InjectBarrier first and take it at once; operators rotate over
                // their inputs so that no input starves (an aligned task waits for all).
                // An operator takes an enabled TimeoutAlignment (listed first) at once, as Flink's timer
                // fires, and an enabled PrioritizeBarrier (listed next) at once, as Flink's task takes a
                // priority event (the barrier announcement) before any buffer.
                Action first = steps.get(0).action();
                Step s = source || first == Action.TIMEOUT_ALIGNMENT || first == Action.PRIORITIZE_BARRIER
                        ? steps.get(0) : steps.get(Math.floorMod(next++, steps.size()));
                started = started + 1; // volatile, own cache line per worker: no shared counter per step
                int n = 1; // if the step throws, the run ends anyway (taskFailure)
                try {
                    n = performChosen(task, s, recordsPerChoice);
                } finally {
                    // Both counts grow by the steps performed, started first (terminated() reads
                    // finished, then started: equal means between steps).
                    started = started + (n - 1);
                    finished = finished + n;
                    performed = n;
                }
                return s;
            } finally {
                for (int k = stepChannels.size() - 1; k >= 0; k--) {
                    stepChannels.get(k).unlockAfterStep();
                }
                if (locked) {
                    traceLock.unlock();
                }
            }
        }

        /** Hands this task's open output buffers over (under the trace lock while tracing). */
        private void flush() {
            lastFlush = System.nanoTime();
            if (tracing) {
                traceLock.lock();
            }
            try {
                task.flushOutputs();
            } finally {
                if (tracing) {
                    traceLock.unlock();
                }
            }
        }

        private void pause(long nanos) {
            if (nanos <= 0) {
                return; // no clock read per record for operators without a cost
            }
            long deadline = System.nanoTime() + nanos;
            for (long left = nanos; left > 0 && !wakeup.stopped(); left = deadline - System.nanoTime()) {
                LockSupport.parkNanos(this, left);
            }
        }
    }

    /** Acknowledgements go to the coordinator; a complete-able checkpoint goes to the coordinator thread. */
    private final class Gateway implements CoordinatorGateway {
        /** Per task: the generation at which the coordinator last said "no barrier" / "no abort news" ({@code -1}: never). */
        private final Map<String, long[]> noBarrierAt = new java.util.HashMap<>();
        private final Map<String, long[]> noAbortNewsAt = new java.util.HashMap<>();

        Gateway() {
            // Filled before any task thread starts and never changed in structure: each task
            // thread reads the map and writes only its own array.
            graph.tasks().forEach(t -> {
                noBarrierAt.put(t.id(), new long[] {-1});
                noAbortNewsAt.put(t.id(), new long[] {-1});
            });
        }

        /** A read or write of the coordinator's state; with a causal trace, carrying the clocks ({@link VectorClocks#atCoordinator}). */
        private <T> T at(boolean writes, java.util.function.Predicate<T> isNews, java.util.function.Supplier<T> call) {
            return clocks == null ? call.get() : clocks.atCoordinator(writes, isNews, call);
        }

        private void write(Runnable call) {
            at(true, null, () -> {
                call.run();
                return null;
            });
        }

        @Override
        public OptionalLong nextBarrierFor(String sourceTask) {
            long[] at = noBarrierAt.get(sourceTask);
            long g = coordinatorGeneration;
            if (at != null && at[0] == g) {
                return OptionalLong.empty();
            }
            OptionalLong r = at(false, OptionalLong::isPresent, () -> coordinator.nextBarrierFor(sourceTask));
            if (at != null && r.isEmpty() && onTaskThread.get()) {
                at[0] = g;
            }
            return r;
        }

        @Override
        public void acknowledge(Acknowledgement ack) {
            AckResult result = at(true, null, () -> coordinator.acknowledge(ack));
            bumpGeneration();
            if (result == AckResult.ALL_ACKNOWLEDGED) {
                completions.add(ack.checkpointId());
                wakeCoordinator();
            }
        }

        @Override
        public long triggerTime(long checkpointId) {
            Long t = triggerTimes.get(checkpointId);
            return t == null ? System.nanoTime() : t;
        }

        @Override
        public long now() {
            return System.nanoTime();
        }

        @Override
        public boolean isSavepoint(long checkpointId) {
            return coordinator.isSavepoint(checkpointId);
        }

        @Override
        public void alignmentSwitched(String task, long checkpointId) {
            write(() -> coordinator.alignmentSwitched(task, checkpointId));
        }

        /**
         * Due N ms after the trigger, also for a checkpoint aborted meanwhile that the task has not
         * learnt of (the spec's TimeoutAlignment: the task's timer knows what the task knows).
         */
        @Override
        public boolean alignmentTimedOut(long checkpointId, long timeoutMillis) {
            return System.nanoTime() - triggerTime(checkpointId) >= TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        }

        @Override
        public OptionalLong nextAbortNotificationFor(String task) {
            long[] at = noAbortNewsAt.get(task);
            long g = coordinatorGeneration;
            if (at != null && at[0] == g) {
                return OptionalLong.empty();
            }
            OptionalLong r = at(false, OptionalLong::isPresent, () -> coordinator.nextAbortNotificationFor(task));
            if (at != null && r.isEmpty() && onTaskThread.get()) {
                at[0] = g;
            }
            return r;
        }

        @Override
        public void abortNotified(String task, long checkpointId) {
            write(() -> coordinator.abortNotified(task, checkpointId));
        }

        @Override
        public OptionalLong nextCompleteNotificationFor(String task) {
            return at(false, OptionalLong::isPresent, () -> coordinator.nextCompleteNotificationFor(task));
        }

        @Override
        public void completeNotified(String task, long checkpointId) {
            write(() -> coordinator.completeNotified(task, checkpointId));
        }

        @Override
        public void declineCheckpoint(String task, long checkpointId) {
            // The decline and its event (AbortCheckpoint, recorded on this task's thread) together,
            // so that the coordinator's clock includes the event.
            boolean declined = clocks == null ? declineNow(task, checkpointId)
                    : clocks.atCoordinator(true, true, null, () -> declineNow(task, checkpointId));
            bumpGeneration();
            if (declined) {
                wakeCoordinator(); // it wakes the tasks with the news
            }
        }

        private boolean declineNow(String task, long checkpointId) {
            boolean d = coordinator.declineCheckpoint(task, checkpointId);
            if (d && listener != ActionListener.NONE) {
                listener.onAction(Action.ABORT_CHECKPOINT.specName(), Map.of("checkpoint", checkpointId,
                        "declinedBy", task));
            }
            return d;
        }

        @Override
        public void taskEnded(Acknowledgement finalState) {
            List<Long> all = at(true, null, () -> coordinator.taskEnded(finalState));
            bumpGeneration();
            completions.addAll(all);
            wakeCoordinator(); // completions, or the end of the run
        }
    }
}
