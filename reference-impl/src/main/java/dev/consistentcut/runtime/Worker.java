package dev.consistentcut.runtime;

import dev.consistentcut.task.Action;
import dev.consistentcut.task.OperatorTask;
import dev.consistentcut.task.SourceTask;
import dev.consistentcut.task.Step;
import dev.consistentcut.task.Task;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * One task's thread of a {@link ThreadedRuntime}: performs its enabled steps, waits on its
 * {@link Wakeup} when there are none. The coordinator thread creates, starts, stops
 * ({@link Wakeup#stop()}) and joins it; it reads {@link #counts}.
 */
final class Worker implements Runnable {
    private final ThreadedRuntime rt;
    final Task task;
    final Wakeup wakeup = new Wakeup();
    final Thread thread;
    final boolean sink;
    final boolean source;
    /** The task as an operator task (it acknowledges its written checkpoints before each step), or null. */
    private final OperatorTask operator;
    /** Steps started and finished by this worker (counted by its thread only; read by the coordinator thread). */
    final Quiescence.Steps counts = new Quiescence.Steps();
    private int next;
    /** Steps since the buffer timeout was last looked at; the time of the last flush. */
    private int sinceTimeCheck;
    private long lastFlush = System.nanoTime();
    private final long bufferTimeout;
    /** {@link ThreadedRuntime#recordsPerChoice(Task)} of this worker's task. */
    private final int recordsPerChoice;

    /**
     * Held around each step ({@link #performStep}), chosen once by the wiring: the run's
     * {@link StepOrdering} (one lock for a trace, nothing by default), or a causal trace's locks of
     * this task's channels.
     */
    private final StepOrdering stepLock;

    Worker(ThreadedRuntime rt, Task task) {
        this.rt = rt;
        this.task = task;
        this.stepLock = rt.causal.stepLock(task.id(), rt.traceStep);
        this.sink = task instanceof OperatorTask o && o.isSink();
        this.source = task instanceof SourceTask;
        this.operator = task instanceof OperatorTask o ? o : null;
        this.recordsPerChoice = ThreadedRuntime.recordsPerChoice(task);
        this.bufferTimeout = rt.threads.bufferTimeout();
        this.thread = new Thread(this, "task-" + task.id());
        this.thread.setDaemon(true);
    }

    @Override
    public void run() {
        rt.onTaskThread.set(true);
        rt.causal.bind(task.id());
        List<Step> steps = new ArrayList<>();
        try {
            while (wakeup.clearUnlessStopped()) { // one step: a stop between a look and a clear was lost
                Step s = performStep(steps);
                int performed = this.performed;
                if (s == null) {
                    flush(); // nothing else to do: hand the part-full buffers over before waiting
                    if (rt.endgame) {
                        rt.wakeCoordinator();
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
                        rt.sinkRecords.addAndGet(performed);
                    }
                    pause(((OperatorTask) task).operator().delayNanosPerRecord());
                } else if (source && ((SourceTask) task).exhausted()) {
                    rt.wakeCoordinator(); // the rt.endgame may have begun
                }
            }
        } catch (Throwable t) {
            rt.taskFailure.compareAndSet(null, new IllegalStateException("thread " + thread.getName() + " failed: " + t, t));
            rt.wakeCoordinator();
        }
    }

    /** Steps the last {@link #performStep} performed: the one chosen and its repetitions. */
    private int performed;

    /**
     * Chooses one enabled step and performs it, holding {@link #stepLock}; null, doing nothing,
     * when none is enabled. Under a one-lock {@link StepOrdering}, choice and step are one unit;
     * while tracing causally, under the locks of this task's channels: the other ends see
     * the step's operations on them as one, as the spec's step is. Otherwise a step that
     * operates on several channels (a barrier injected on three outputs, a record taken and
     * its result put, a cancellation and then a barrier on one output) publishes its event's
     * number with its first operation and merges clocks at later ones, and when the other end
     * of the first acted on it meanwhile and that came back to a later one, the event's clock
     * said it came after what came after it: a cycle (and a run that no sequence of the
     * spec's atomic steps explains). docs/trace-validation.md, "Causal traces".
     */
    private Step performStep(List<Step> steps) {
        stepLock.lock();
        try {
            if (operator != null) {
                operator.acknowledgeWritten(); // the checkpoints whose write is done, in order; no step
            }
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
            counts.begin();
            int n = 1; // if the step throws, the run ends anyway (rt.taskFailure)
            try {
                n = ThreadedRuntime.performChosen(task, s, recordsPerChoice);
            } finally {
                counts.end(n);
                performed = n;
            }
            return s;
        } finally {
            stepLock.unlock();
        }
    }

    /** Hands this task's open output buffers over, holding the run's {@link StepOrdering} as a step does. */
    private void flush() {
        lastFlush = System.nanoTime();
        rt.traceStep.run(task::flushOutputs);
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
