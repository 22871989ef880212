package dev.consistentcut.runtime;

import dev.consistentcut.checkpoint.CheckpointStore;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.task.RunObserver;
import java.util.Objects;
import java.util.Random;
import java.util.function.Consumer;
import java.util.function.LongFunction;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * Settings of one run, for both runtimes. Time-valued settings are in the runtime's clock unit:
 * simulation steps in {@link SimulationRuntime}, nanoseconds in {@link ThreadedRuntime}. Each
 * setting says which runtime reads it. Immutable; build with {@link #builder()}.
 *
 * @param seed simulation: seeds the choice of the next step (the whole run follows from it)
 * @param maxSteps simulation: a run that has not finished after this many steps is reported as not finished
 * @param checkpointInterval both: least time between two triggers (0: any time)
 * @param triggerProbability simulation: chance that an enabled trigger is taken at a step
 * @param maxCheckpoints simulation: most checkpoints triggered in the run (the checkpoint budget)
 * @param checkpointTimeout both: a pending checkpoint older than this is aborted (0: never)
 * @param abortProbability simulation: chance per step of aborting a pending checkpoint at random
 * @param maxConcurrentAligned both: checkpoints in flight at once in aligned mode (unaligned: always 1)
 * @param maxFailures simulation: most failures injected at random steps
 * @param failureProbability simulation: chance per step of a failure while the budget lasts
 * @param failAtStep simulation: a failure at exactly this step (-1: none), counted in the budget
 * @param failAfterCheckpoint both: one failure right after the {@code n}-th completed checkpoint (0: none)
 * @param storeFactory both: the checkpoint store (called once per runtime)
 * @param observer both: observes every step (thread-safe in the threaded runtime); the threaded
 *     runtime serializes steps with their events while one other than {@link RunObserver#NONE} is set
 * @param trackProcessed both: keep the processed ledgers; without them no invariant can be checked
 * @param onCheckpoint both: called with each completed checkpoint (coordinator thread when threaded)
 * @param progress both: progress lines, e.g. for stderr
 * @param tolerableFailedCheckpoints both: consecutive checkpoints whose store write may fail (each
 *     is declined, i.e. aborted, and the job goes on) before the next failure fails the job with
 *     {@link TooManyFailedCheckpointsException} (Flink's tolerable-failed-checkpoints)
 * @param abortsReachTasks both: aborted checkpoints leave flight at once and tasks are notified (see the builder)
 * @param endOfInput both: sources end their partitions and the run goes to the end of its input (see the builder)
 * @param savepointEvery both, alternating mode: every {@code n}-th triggered checkpoint is a
 *     savepoint, forced aligned (0: none)
 * @param failureAfterCompletionProbability simulation: chance that a completed checkpoint is
 *     followed at once by a failure, before any task took its {@code NotifyCheckpointComplete}
 *     (the notification is lost; within the failure budget)
 * @param declineProbability both: chance that an operator task declines a checkpoint when
 *     its first barrier of it arrives ({@code DeclineCheckpoint}: the task cannot take part, the
 *     coordinator aborts it; see the builder)
 * @param bufferSize threads: records per network buffer; 0: a quarter of each channel's
 *     capacity (four buffers per channel), 1: every record handed over on its own. The simulation
 *     always uses buffers of one record (a step moves one record, as the spec's actions do)
 * @param bufferTimeout threads: an open buffer is handed over part-full at the latest this long
 *     after its task last flushed (Flink's {@code execution.buffer-timeout}); a task with nothing
 *     else to do flushes at once. 0: flush after every step
 * @param draws both: makes the run's source of random draws from {@link #seed()} (see the builder);
 *     every random choice of a runtime is drawn from the one source {@link #newDraws()} makes
 */
public record RunOptions(
        long seed,
        long maxSteps,
        long checkpointInterval,
        double triggerProbability,
        int maxCheckpoints,
        long checkpointTimeout,
        double abortProbability,
        int maxConcurrentAligned,
        int maxFailures,
        double failureProbability,
        long failAtStep,
        int failAfterCheckpoint,
        Supplier<CheckpointStore> storeFactory,
        RunObserver observer,
        boolean trackProcessed,
        Consumer<CompletedCheckpoint> onCheckpoint,
        Consumer<String> progress,
        int tolerableFailedCheckpoints,
        boolean abortsReachTasks,
        boolean endOfInput,
        int savepointEvery,
        double failureAfterCompletionProbability,
        double declineProbability,
        int bufferSize,
        long bufferTimeout,
        LongFunction<RandomGenerator> draws) {

    public RunOptions {
        Objects.requireNonNull(storeFactory, "storeFactory");
        Objects.requireNonNull(observer, "observer");
        Objects.requireNonNull(onCheckpoint, "onCheckpoint");
        Objects.requireNonNull(progress, "progress");
        Objects.requireNonNull(draws, "draws");
        requireProbability("triggerProbability", triggerProbability);
        requireProbability("abortProbability", abortProbability);
        requireProbability("failureProbability", failureProbability);
        requireProbability("failureAfterCompletionProbability", failureAfterCompletionProbability);
        requireProbability("declineProbability", declineProbability);
        requireAtLeast("maxSteps", maxSteps, 1);
        requireAtLeast("checkpointInterval", checkpointInterval, 0);
        requireAtLeast("maxCheckpoints", maxCheckpoints, 0);
        requireAtLeast("checkpointTimeout", checkpointTimeout, 0);
        requireAtLeast("maxConcurrentAligned", maxConcurrentAligned, 1);
        requireAtLeast("maxFailures", maxFailures, 0);
        requireAtLeast("failAfterCheckpoint", failAfterCheckpoint, 0);
        requireAtLeast("tolerableFailedCheckpoints", tolerableFailedCheckpoints, 0);
        requireAtLeast("savepointEvery", savepointEvery, 0);
        requireAtLeast("bufferSize", bufferSize, 0);
        requireAtLeast("bufferTimeout", bufferTimeout, 0);
    }

    /**
     * A new source of the run's random draws, seeded with {@link #seed()}: the simulation chooses
     * its steps and draws its failures, aborts and declines from it; the threaded runtime draws
     * its declines from it (on the task threads, so the source must be thread-safe there).
     */
    public RandomGenerator newDraws() {
        return draws.apply(seed);
    }

    /** Whether the {@code n}-th triggered checkpoint (from 1) is a savepoint. */
    public boolean isSavepoint(long n) {
        return savepointEvery > 0 && n % savepointEvery == 0;
    }

    private static void requireAtLeast(String name, long value, long min) {
        if (value < min) {
            throw new IllegalArgumentException(name + " must be >= " + min + ", got " + value);
        }
    }

    private static void requireProbability(String name, double p) {
        if (!(p >= 0 && p <= 1)) {
            throw new IllegalArgumentException(name + " must be within [0, 1], got " + p);
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from the defaults documented on each setter. Not thread-safe. */
    public static final class Builder {
        private long seed = 1;
        private long maxSteps = 50_000_000;
        private long checkpointInterval;
        private double triggerProbability = 0.05;
        private int maxCheckpoints = Integer.MAX_VALUE;
        private long checkpointTimeout;
        private double abortProbability;
        private double declineProbability;
        private int maxConcurrentAligned = 1;
        private boolean abortsReachTasks = true;
        private int savepointEvery;
        private boolean endOfInput;
        private int maxFailures;
        private double failureProbability;
        private long failAtStep = -1;
        private int failAfterCheckpoint;
        private Supplier<CheckpointStore> storeFactory = () -> new dev.consistentcut.checkpoint.InMemoryCheckpointStore(3);
        private RunObserver observer = RunObserver.NONE;
        private boolean trackProcessed = true;
        private Consumer<CompletedCheckpoint> onCheckpoint = c -> { };
        private Consumer<String> progress = s -> { };
        private int tolerableFailedCheckpoints;
        private double failureAfterCompletionProbability;
        private int bufferSize;
        private long bufferTimeout = 100_000_000L;
        private LongFunction<RandomGenerator> draws = Random::new;

        /** Default 1. */
        public Builder seed(long v) {
            seed = v;
            return this;
        }

        /** Default 50,000,000. */
        public Builder maxSteps(long v) {
            maxSteps = v;
            return this;
        }

        /** Default 0: any time. */
        public Builder checkpointInterval(long v) {
            checkpointInterval = v;
            return this;
        }

        /** Default 0.05. */
        public Builder triggerProbability(double v) {
            triggerProbability = v;
            return this;
        }

        /** Default unlimited. */
        public Builder maxCheckpoints(int v) {
            maxCheckpoints = v;
            return this;
        }

        /** Default 0: never. */
        public Builder checkpointTimeout(long v) {
            checkpointTimeout = v;
            return this;
        }

        /** Default 0. */
        public Builder abortProbability(double v) {
            abortProbability = v;
            return this;
        }

        /** Default 1. */
        public Builder maxConcurrentAligned(int v) {
            maxConcurrentAligned = v;
            return this;
        }

        /** Default 0. */
        public Builder maxFailures(int v) {
            maxFailures = v;
            return this;
        }

        /** Default 0. */
        public Builder failureProbability(double v) {
            failureProbability = v;
            return this;
        }

        /** Default -1: none. */
        public Builder failAtStep(long v) {
            failAtStep = v;
            return this;
        }

        /** Default 0: none. */
        public Builder failAfterCheckpoint(int v) {
            failAfterCheckpoint = v;
            return this;
        }

        /** Default: an in-memory store keeping the last 3. */
        public Builder store(Supplier<CheckpointStore> v) {
            storeFactory = v;
            return this;
        }

        /** Default {@link RunObserver#NONE}. */
        public Builder observer(RunObserver v) {
            observer = v;
            return this;
        }

        /** Default true. */
        public Builder trackProcessed(boolean v) {
            trackProcessed = v;
            return this;
        }

        /** Default: nothing. */
        public Builder onCheckpoint(Consumer<CompletedCheckpoint> v) {
            onCheckpoint = v;
            return this;
        }

        /** Default: nothing. */
        public Builder progress(Consumer<String> v) {
            progress = v;
            return this;
        }

        /** Default 0, as in Flink: the first failed store write fails the job. */
        public Builder tolerableFailedCheckpoints(int v) {
            tolerableFailedCheckpoints = v;
            return this;
        }

        /**
         * Default true, as Flink: an aborted checkpoint leaves flight at once and the coordinator
         * notifies the tasks ({@code NotifyCheckpointAborted}); its barriers still travelling are
         * then dropped as obsolete. False is the older model option of the spec
         * ({@code AbortsReachTasks = FALSE}): it stays in flight until every task acknowledged
         * it, and no task learns of it (the trace specs use it).
         */
        public Builder abortsReachTasks(boolean v) {
            abortsReachTasks = v;
            return this;
        }

        /**
         * Default false. True: a source that has read its whole log sends end of partition
         * ({@code SendEndOfPartition}), operators end when every input has ended, and the run
         * finishes only when every task has ended (FLIP-147; the spec's {@code EndOfInput}).
         */
        public Builder endOfInput(boolean v) {
            endOfInput = v;
            return this;
        }

        /**
         * Default 0 (none). {@code n > 0}: every {@code n}-th checkpoint triggered is a savepoint,
         * forced aligned: its barriers never switch to unaligned and it persists no channel state
         * (alternating mode; in aligned and at-least-once mode every checkpoint is aligned anyway).
         */
        public Builder savepointEvery(int n) {
            savepointEvery = n;
            return this;
        }

        /**
         * Default 0. The chance that a completed checkpoint is followed at once by a failure,
         * before its completion notification reached any task (simulation; counts against
         * {@link #maxFailures}): the lost notifications a transactional sink must survive. A job
         * without a transactional sink has no notification to lose: it draws nothing and no such
         * failure strikes.
         */
        public Builder failureAfterCompletionProbability(double v) {
            failureAfterCompletionProbability = v;
            return this;
        }

        /**
         * Default 0. The chance that an operator task cannot take part in a checkpoint whose
         * first barrier just reached it (a choice per task and checkpoint; seeded in the
         * simulation, drawn by the task threads in no fixed order in the threaded runtime): it
         * declines it ({@code DeclineCheckpoint}: the coordinator aborts it at once, every task is
         * notified) and abandons it on that barrier, forwarding its cancellation. Flink's task
         * that cannot snapshot declines the same way (StreamTask's checkpoint failing on the
         * barrier: the coordinator gets a DeclineCheckpoint, downstream a CancelCheckpointMarker).
         */
        public Builder declineProbability(double v) {
            declineProbability = v;
            return this;
        }

        /**
         * Default 0: buffers of a quarter of each channel's capacity (threads; the simulation
         * always moves single records). 1: per record, as before network buffers.
         */
        public Builder bufferSize(int v) {
            bufferSize = v;
            return this;
        }

        /** Default 100 ms (in nanoseconds), Flink's default buffer timeout (threads). */
        public Builder bufferTimeout(long v) {
            bufferTimeout = v;
            return this;
        }

        /**
         * Default {@code Random::new}: {@code new java.util.Random(seed)}, so a seed gives the run
         * it always gave. A test that needs a particular schedule gives a scripted source instead.
         */
        public Builder draws(LongFunction<RandomGenerator> v) {
            draws = v;
            return this;
        }

        public RunOptions build() {
            return new RunOptions(seed, maxSteps, checkpointInterval, triggerProbability, maxCheckpoints,
                    checkpointTimeout, abortProbability, maxConcurrentAligned, maxFailures, failureProbability,
                    failAtStep, failAfterCheckpoint, storeFactory, observer, trackProcessed, onCheckpoint, progress,
                    tolerableFailedCheckpoints, abortsReachTasks, endOfInput, savepointEvery,
                    failureAfterCompletionProbability, declineProbability, bufferSize, bufferTimeout, draws);
        }
    }
}
