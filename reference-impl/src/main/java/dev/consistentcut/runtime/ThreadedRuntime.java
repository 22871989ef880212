package dev.consistentcut.runtime;

import dev.consistentcut.annotation.TestSeam;
import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.causal.VectorClocks;
import dev.consistentcut.channel.CausalChannel;
import dev.consistentcut.channel.ChannelClock;
import dev.consistentcut.checkpoint.CheckpointCoordinator;
import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.PhysicalGraph;
import dev.consistentcut.task.Action;
import dev.consistentcut.task.OperatorTask;
import dev.consistentcut.task.SourceTask;
import dev.consistentcut.task.Step;
import dev.consistentcut.task.Task;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BiFunction;
import java.util.function.UnaryOperator;
import java.util.random.RandomGenerator;

/**
 * The threaded runtime: one thread per task instance, running the same task classes as the
 * simulation, and a coordinator thread (the thread that calls {@link #run()}) that triggers a
 * checkpoint every {@link CheckpointSettings#checkpointInterval()} nanoseconds, completes
 * checkpoints, aborts those older than {@link CheckpointSettings#checkpointTimeout()}, injects the
 * failure after the {@link CheckpointSettings#failAfterCheckpoint()}-th completed checkpoint, and
 * detects termination.
 *
 * <p><b>Waiting, not spinning.</b> A task thread with no enabled step waits on its {@link Wakeup};
 * each channel wakes its receiver when an element arrives and its sender when a record leaves (the
 * channel's listeners), and a trigger wakes the sources. Backpressure is therefore a sender
 * waiting for room. A slow operator ({@link dev.consistentcut.operator.Operator#delayNanosPerRecord()})
 * parks its thread after each record.
 *
 * <p><b>Network buffers</b>: channels carry records in buffers of
 * {@link ThreadSettings#bufferSize()} records (a quarter of a channel's capacity by default). A task
 * hands a buffer over when it is full, before any event it sends, when it has no step enabled
 * (before it waits), and at the latest {@link ThreadSettings#bufferTimeout()} after its last flush
 * (checked every few steps, Flink's output flusher). A flush holds the {@link StepOrdering}
 * like a step (it is none, but a channel's contents include its open buffer, so a trace must not
 * see one half done).
 *
 * <p><b>Completion.</b> A task whose acknowledgement makes a checkpoint complete-able hands its id
 * to the coordinator thread, which calls {@code completeCheckpoint} and hands the checkpoint to
 * the checker thread ({@link CheckerThread}), which checks it against {@code ConsistentCutInv}
 * (and {@code AlignedNoChannelStateInv} when aligned) while the coordinator goes on triggering;
 * every check has run before the run's result is made. So the store is written by the
 * coordinator thread only. After each of its coordinator steps it checks
 * the restore-point and status invariants, and after each restore every channel's
 * {@code FifoChannelInv} (and {@code BarrierOvertakesInv} when unaligned): {@link dev.consistentcut.check.LifecycleChecks}.
 *
 * <p><b>Termination</b>: every source exhausted, every channel empty, nothing in flight or waiting
 * for completion, and no task in the middle of a step. The coordinator thread reads the counters
 * of started and finished steps before and after inspecting the rest; if no step was running at
 * the first read and none started until the last, what it inspected was a quiescent state. It then
 * stops the task threads and checks {@code ExactlyOnceInv} on their final ledgers.
 *
 * <p><b>Stopping threads</b> (termination, {@code FailAndRestore}): {@link Wakeup#stop()}, the
 * request and its wake-up in one step (a flag beside the wake-up lost stops: see {@link Wakeup}),
 * then {@code join}. Threads are not interrupted, because an interrupt closes any
 * {@code FileChannel} the thread is using (a trace-writing {@link dev.consistentcut.task.RunObserver}, say), and
 * every step is short anyway.
 *
 * <p><b>Threading contract.</b> {@link #run()} is called once, by one thread, which becomes the
 * coordinator thread. {@link #failAndRestore()} may be called from any other thread while
 * {@code run()} runs: it asks the coordinator thread to do it and waits until it is done
 * ({@link CoordinatorControl}). The coordinator side ({@link CheckpointDriver}) is called by the
 * coordinator thread only, each step inside {@code coordinatorStep} (holding the
 * {@link ThreadSettings#stepOrdering()}; {@code FailAndRestore} with every task thread stopped);
 * the task threads ({@link Worker}) reach the coordinator through the driver's
 * {@link DriverGateway} only. The observer is called from every task thread and the coordinator
 * thread; one at a time only under a one-lock ordering ({@link StepOrdering#oneAtATime()}).
 */
public final class ThreadedRuntime extends DrivenRuntime {

    private static final long PROGRESS_INTERVAL = TimeUnit.SECONDS.toNanos(1);

    final CheckpointDriver driver;
    final ThreadSettings threads;
    final CheckpointSettings checkpoints;
    final ObservationSettings observation;
    /**
     * Held around every task step, coordinator step and flush together with their events, as the
     * installer of the observer chose ({@link ThreadSettings#stepOrdering()}): one lock for a trace,
     * so that the order of the calls is an order in which the steps happened one at a time;
     * nothing by default. A causal trace orders the task steps by their channels' locks instead
     * ({@link #causal}).
     */
    final StepOrdering traceStep;
    /**
     * A causal trace: every task and the coordinator log their own events, stamped with vector
     * clocks that the channels and the coordinator carry ({@link VectorClocks}); no trace lock
     * then, so the traced run races as an untraced one. {@link CausalWiring#NONE} without one.
     * Set before the run.
     */
    CausalWiring causal = CausalWiring.NONE;

    /** Steps of workers that have been stopped (a failure restarts them); the live ones count in {@link Worker}. Coordinator thread only. */
    private long stepsOfStoppedWorkers;
    final AtomicLong sinkRecords = new AtomicLong();
    final AtomicReference<Throwable> taskFailure = new AtomicReference<>();
    /** True on this runtime's task threads. */
    final ThreadLocal<Boolean> onTaskThread = ThreadLocal.withInitial(() -> false);
    /** Set by the coordinator thread once every source is exhausted: idle tasks then wake it up. */
    volatile boolean endgame;

    /** Checks each completed checkpoint's cut off the coordinator thread; drained before the final checks. */
    private final CheckerThread checker = new CheckerThread();

    /** Wake-ups of the coordinator thread and failures asked for from other threads. */
    private final CoordinatorControl control = new CoordinatorControl();

    // Coordinator thread only.
    private final Map<String, Worker> workers = new LinkedHashMap<>();
    /** Coordinator thread only: the step counts of {@link #workers}. */
    private final List<Quiescence.Steps> stepCounts = new ArrayList<>();
    /** Coordinator thread only: checkpoints whose alignment timeout has woken the tasks. */
    private final Set<Long> timeoutsWoken = new java.util.HashSet<>();
    /** Coordinator thread only: the abort count when the tasks were last woken for news. */
    private long abortsSeen;

    public ThreadedRuntime(JobGraph job, BarrierMode mode, RunOptions options) {
        this.threads = options.threads();
        this.checkpoints = options.checkpoints();
        this.observation = options.observation();
        this.traceStep = threads.stepOrdering();
        // Declines are drawn by the task threads, in no fixed order: the seed does not reproduce them.
        RandomGenerator declineDraws = options.draws().newDraws();
        this.driver = new CheckpointDriver(job, mode, checkpoints, observation, System::nanoTime, threads.bufferSize(),
                threads.bufferEncoding(), UnaryOperator.identity(), true, new DriverGateway.Choices(TimeUnit.MILLISECONDS.toNanos(1),
                        declineDraws::nextDouble, this::wakeCoordinator, onTaskThread::get), checker,
                OperatorTask.BACKGROUND_MATERIALISER, OperatorTask.BACKGROUND_WRITER);
    }

    /**
     * Records causally instead of under a one-lock {@link StepOrdering}: each thread's events go to its process's
     * log in {@code c} (the task ids and {@link VectorClocks#COORDINATOR}), with the clocks every
     * channel (a {@link CausalChannel} installed on each) and the coordinator carry. Call once,
     * before {@link #run()}.
     */
    public void recordCausally(VectorClocks c) {
        recordCausally(c, (channel, clock) -> clock);
    }

    /** As {@link #recordCausally(VectorClocks)}, with each channel's clock wrapped by {@code clockFor} (channel id, clock): a test slows one. */
    @TestSeam
    public void recordCausally(VectorClocks c, BiFunction<String, ChannelClock, ChannelClock> clockFor) {
        java.util.Objects.requireNonNull(c, "clocks");
        this.causal = CausalWiring.install(c, driver.graph, driver.deployment.channels, clockFor);
        driver.gateway.recordCausally(causal);
    }

    /** The processes of a causal trace of this runtime's job: every task, then the coordinator. */
    public List<String> processes() {
        List<String> p = new ArrayList<>();
        driver.graph.tasks().forEach(t -> p.add(t.id()));
        p.add(VectorClocks.COORDINATOR);
        return p;
    }

    /** Runs the job until it terminates; the calling thread is the coordinator thread. Call once. */
    @Override
    public RunResult run() {
        control.begin();
        causal.bind(VectorClocks.COORDINATOR);
        long start = System.nanoTime();
        startWorkers();
        try {
            runUntilTerminated(start);
            checker.awaitAll(); // every completed checkpoint's verdict is in before the run's result
        } finally {
            checker.close();
        }
        driver.violations.addAll(driver.finalChecks(true));
        return driver.result("threads", true, stepsFinished() + driver.triggeredCount() + driver.completed().size(),
                driver.violations, System.nanoTime() - start);
    }

    /** The coordinator thread's loop: steps, triggers and progress until the run terminates; then the task threads stop. */
    private void runUntilTerminated(long start) {
        long nextTrigger = start + checkpoints.checkpointInterval();
        long nextProgress = start + PROGRESS_INTERVAL;
        long lastSinkRecords = 0;
        long lastProgress = start;
        try {
            while (true) {
                Throwable f = taskFailure.get();
                if (f != null) {
                    throw new IllegalStateException(f.getMessage(), f);
                }
                for (Long c; (c = driver.completable().pollFirst()) != null; ) {
                    long id = c;
                    coordinatorStep(() -> completeCheckpoint(id));
                }
                if (driver.failAfterCheckpointDue()) {
                    failAndRestoreNow();
                }
                performRequestedFailures();
                if (checkpoints.checkpointTimeout() > 0) {
                    coordinatorStep(driver::abortExpired);
                }
                long now = System.nanoTime();
                boolean canTrigger = shouldTrigger();
                if (canTrigger && now >= nextTrigger) {
                    coordinatorStep(this::triggerCheckpoint);
                    nextTrigger = now + checkpoints.checkpointInterval();
                    canTrigger = shouldTrigger();
                }
                if (now >= nextProgress) {
                    long sink = sinkRecords.get();
                    double seconds = (now - lastProgress) / 1e9;
                    observation.progress().accept(String.format("%.1f s: sinks received %d records (%.0f records/s)",
                            (now - start) / 1e9, sink, (sink - lastSinkRecords) / seconds));
                    lastSinkRecords = sink;
                    lastProgress = now;
                    nextProgress = now + PROGRESS_INTERVAL; // no catch-up lines after a stall
                }
                long aborts = driver.coordinator.abortCount();
                if (aborts != abortsSeen) {
                    abortsSeen = aborts; // tasks have news (NotifyCheckpointAborted): wake them
                    workers.values().forEach(w -> w.wakeup.signal());
                }
                endgame = driver.deployment.sourcesExhausted();
                if (!driver.failAfterCheckpointPending() && terminated()) {
                    break;
                }
                long until = canTrigger ? Math.min(nextTrigger, nextProgress) : nextProgress;
                until = Math.min(until, wakeForAlignmentTimeouts(now));
                control.awaitWork(until - System.nanoTime());
            }
        } finally {
            stopWorkers();
            causal.joinAll(); // what the coordinator records now (RunEnded) comes after everything
            control.end();
        }
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
        long timeout = driver.mode.alignedTimeoutMillis();
        if (timeout < 0) {
            return Long.MAX_VALUE;
        }
        long next = Long.MAX_VALUE;
        for (long c : driver.coordinator.inFlight()) {
            Long t = driver.triggerTimes.get(c);
            if (t == null || timeoutsWoken.contains(c)) {
                continue;
            }
            long deadline = t + TimeUnit.MILLISECONDS.toNanos(timeout);
            if (now >= deadline) {
                timeoutsWoken.add(c);
                for (OperatorTask o : driver.deployment.operators) {
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

    /** Triggers while the coordinator allows it, and the job still reads input or a failure is still to come. */
    private boolean shouldTrigger() {
        Deployment d = driver.deployment;
        return driver.coordinator.canTrigger()
                && (!d.sourcesExhausted() || driver.failAfterCheckpointPending() || !d.sinksSettled());
    }

    private long stepsFinished() {
        long n = stepsOfStoppedWorkers;
        for (Worker w : workers.values()) {
            n += w.counts.finished();
        }
        return n;
    }

    /** Quiescence ({@link Quiescence#reached}) of the workers, with nothing left to do. */
    private boolean terminated() {
        return Quiescence.reached(stepCounts, this::quiet);
    }

    /** Nothing left to do, as far as the coordinator thread can see between steps. */
    private boolean quiet() {
        Deployment d = driver.deployment;
        return driver.completable().isEmpty() && driver.coordinator.inFlight().isEmpty()
                && d.sourcesExhausted() && d.channelsEmpty() && d.allEnded()
                && driver.coordinator.abortCount() == abortsSeen && noAbortNews() && d.sinksSettled();
    }

    /** No task has an abort notification still to take (else the run is not over). */
    private boolean noAbortNews() {
        return Quiescence.noNewsLeft(driver.deployment.operators, OperatorTask::ended,
                o -> driver.coordinator.nextAbortNotificationFor(o.id()));
    }

    /** A coordinator step: under {@link #traceStep} (the {@link ThreadSettings#stepOrdering()}), or with a causal trace atomically with the coordinator's clock. */
    private void coordinatorStep(Runnable step) {
        causal.coordinatorStep(step, traceStep);
        driver.gateway.coordinatorChanged(); // aborts, completions: before the loop wakes the tasks with the news
        driver.lifecycle.check(0); // the pending checkpoints' statuses (completions name theirs), the restore point
    }

    /** Any thread: the coordinator thread looks again at once. */
    void wakeCoordinator() {
        control.wake();
    }

    /** Action {@code TriggerCheckpoint} ({@link CheckpointDriver#trigger}); wakes the sources to inject the barrier. */
    private void triggerCheckpoint() {
        if (driver.trigger().isPresent()) {
            for (SourceTask s : driver.deployment.sources) {
                workers.get(s.id()).wakeup.signal();
            }
        }
    }

    /** Action {@code CompleteCheckpoint} ({@link CheckpointDriver#complete}), then the sinks' notifications. */
    private void completeCheckpoint(long c) {
        if (driver.complete(c).isEmpty()) {
            return;
        }
        if (driver.failAfterCheckpointDue()) {
            // "--fail-after-checkpoint N" strikes between CompleteCheckpoint(N) and the sinks'
            // NotifyCheckpointComplete: the notification is lost and recovery must re-commit.
            driver.withholdNotification();
            return;
        }
        driver.notifyCompletion(c);
        for (String t : driver.sinks) {
            workers.get(t).wakeup.signal(); // an ended sink waits for exactly this
        }
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
        control.requestFailureAndWait(onTaskThread.get());
    }

    /** Coordinator thread: performs the failures other threads asked for, and lets each caller go. */
    private void performRequestedFailures() {
        for (int i = control.requestedFailures(); i > 0; i--) {
            failAndRestoreNow();
            control.failurePerformed();
        }
    }

    /** {@code FailAndRestore} on the coordinator thread: stop every task, restore, restart. */
    private void failAndRestoreNow() {
        stopWorkers();
        causal.joinAll(); // every task has stopped: the failure comes after all they did
        driver.failAndRestore("");
        endgame = false;
        causal.inheritAll(); // and everything the restarted tasks do comes after it
        startWorkers();
    }

    private void startWorkers() {
        for (Worker w : workers.values()) {
            stepsOfStoppedWorkers += w.counts.finished();
        }
        workers.clear();
        stepCounts.clear();
        for (Task t : driver.deployment.tasks.values()) {
            Worker w = new Worker(this, t);
            workers.put(t.id(), w);
            stepCounts.add(w.counts);
        }
        // Channels are idle here: setting their listeners is allowed.
        for (PhysicalGraph.ChannelSpec c : driver.graph.channels()) {
            Wakeup receiver = workers.get(c.receiver()).wakeup;
            Wakeup sender = workers.get(c.sender()).wakeup;
            driver.deployment.channels.get(c.id()).setListeners(receiver::signal, sender::signal);
        }
        for (OperatorTask o : driver.deployment.operators) {
            o.onWritten(workers.get(o.id()).wakeup::signal); // a write done: the task acknowledges it
        }
        for (Worker w : workers.values()) {
            w.thread.start();
        }
    }

    private void stopWorkers() {
        for (Worker w : workers.values()) {
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

    // ------------------------------------------------------------------ for tests

    /** The coordinator side; a test may step it by hand (before {@link #run()}, on one thread). */
    @Override
    CheckpointDriver driver() {
        return driver;
    }

    /**
     * The most steps a worker performs per choice: a chosen {@code ProcessRecord} or
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
}
