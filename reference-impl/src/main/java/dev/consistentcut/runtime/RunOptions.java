package dev.consistentcut.runtime;

import dev.consistentcut.channel.BufferEncoding;
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
 * Settings of one run, grouped by who reads them: the coordinator side of both runtimes
 * ({@link CheckpointSettings}), the simulation ({@link SimulationSettings}), the threads
 * ({@link ThreadSettings}), the observers and checks ({@link ObservationSettings}) and the random
 * draws ({@link DrawSettings}). Each reader is handed its own group only; callers build all of
 * them with the one {@link #builder()}. Immutable.
 */
public record RunOptions(
        CheckpointSettings checkpoints,
        SimulationSettings simulation,
        ThreadSettings threads,
        ObservationSettings observation,
        DrawSettings draws) {

    public RunOptions {
        Objects.requireNonNull(checkpoints, "checkpoints");
        Objects.requireNonNull(simulation, "simulation");
        Objects.requireNonNull(threads, "threads");
        Objects.requireNonNull(observation, "observation");
        Objects.requireNonNull(draws, "draws");
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
        private BufferEncoding bufferEncoding = BufferEncoding.REFERENCES;
        private long bufferTimeout = 100_000_000L;
        private LongFunction<RandomGenerator> draws = Random::new;
        private StepOrdering stepOrdering = StepOrdering.CONCURRENT;

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
         * Default {@link BufferEncoding#REFERENCES} (threads): buffers carry the record objects.
         * {@link BufferEncoding#SERIALIZED}: the records are serialized on hand-over and
         * deserialized by the receiver, the work a distributed engine does per record and hop.
         */
        public Builder bufferEncoding(BufferEncoding v) {
            bufferEncoding = v;
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

        /**
         * Default {@link StepOrdering#CONCURRENT} (threads): steps race, and the observer is called
         * from every thread at once. A trace recorder passes {@link StepOrdering#oneAtATime()}.
         */
        public Builder stepOrdering(StepOrdering v) {
            stepOrdering = v;
            return this;
        }

        public RunOptions build() {
            SimulationSettings simulation = new SimulationSettings(maxSteps, triggerProbability, maxCheckpoints,
                    abortProbability, maxFailures, failureProbability, failAtStep, failureAfterCompletionProbability);
            CheckpointSettings checkpoints = new CheckpointSettings(checkpointInterval, checkpointTimeout,
                    maxConcurrentAligned, failAfterCheckpoint, storeFactory, tolerableFailedCheckpoints,
                    abortsReachTasks, endOfInput, savepointEvery, declineProbability);
            ThreadSettings threads = new ThreadSettings(bufferSize, bufferTimeout, stepOrdering, bufferEncoding);
            return new RunOptions(checkpoints, simulation, threads,
                    new ObservationSettings(observer, trackProcessed, onCheckpoint, progress),
                    new DrawSettings(seed, draws));
        }
    }
}
