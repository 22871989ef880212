package dev.consistentcut.runtime;

import dev.consistentcut.checkpoint.AckResult;
import dev.consistentcut.checkpoint.Acknowledgement;
import dev.consistentcut.checkpoint.CheckpointCoordinator;
import dev.consistentcut.task.CoordinatorGateway;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.BooleanSupplier;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The one task-to-coordinator gateway, over a {@link CheckpointDriver}'s coordinator, for both
 * runtimes: acknowledgements and final states go to the coordinator, and a checkpoint they make
 * complete-able joins the driver's complete-able set; declines go through the driver.
 *
 * <p>What differs between the runtimes is in {@link Choices}: the clock's unit, the draws of
 * declines, how the coordinator thread is woken, and whether a task may be told "nothing new"
 * without asking the coordinator (threads only).
 *
 * <p><b>Threading.</b> The task methods are called by task threads (the simulation's one thread,
 * or each task's own thread); {@link #coordinatorChanged()} by any thread;
 * {@link #recordCausally} before the run. Every call reads or writes the coordinator's state
 * through {@link CausalWiring#atCoordinator}: with a causal trace it carries the clocks, without
 * one it only runs the call.
 */
final class DriverGateway implements CoordinatorGateway {

    /**
     * A runtime's choices.
     *
     * @param ticksPerMilli clock ticks per millisecond (simulation: a step stands for one; threads: nanoseconds)
     * @param declineDraws uniform draws in [0, 1) for {@link CheckpointSettings#declineProbability()}; drawn only when declines are on
     * @param wakeCoordinator called after a change the coordinator thread must act on (a complete-able
     *     checkpoint, a decline, a task's end); any thread
     * @param mayCacheNoNews whether the calling thread may keep a "nothing for you" answer until the
     *     coordinator changes (threads: true on task threads)
     */
    record Choices(long ticksPerMilli, DoubleSupplier declineDraws, Runnable wakeCoordinator,
                   BooleanSupplier mayCacheNoNews) {}

    private final CheckpointDriver driver;
    private final CheckpointCoordinator coordinator;
    private final LongSupplier clock;
    private final Choices choices;
    private final double declineProbability;
    /** A causal trace's clocks, or {@link CausalWiring#NONE}; set before the run. */
    private CausalWiring causal = CausalWiring.NONE;

    /**
     * Moved right after every change of the coordinator's state that can give a task a barrier to
     * inject or news to take (trigger, abort, decline, completion, restore), before
     * the tasks are woken: the gateway answers "nothing for you" without the coordinator's lock
     * while it has not moved since the task last got that answer from the coordinator.
     */
    private final NewsGeneration generation = new NewsGeneration();
    /**
     * Per task: its questions for "a barrier to inject?" and for "abort news?". Built once, so
     * that asking, once per record on a source's path, allocates nothing: built per call, they
     * were among a job's largest allocations.
     */
    private final Map<String, Question> barrierQuestions = new HashMap<>();
    private final Map<String, Question> abortNewsQuestions = new HashMap<>();

    /**
     * One task's question to the coordinator, and its {@link NewsGeneration} mark: the generation
     * of its last "nothing" answer. Used by that task's thread only.
     */
    private record Question(long[] mark, Supplier<OptionalLong> ask) {}

    DriverGateway(CheckpointDriver driver, LongSupplier clock, Choices choices) {
        this.driver = driver;
        this.coordinator = driver.coordinator;
        this.clock = clock;
        this.choices = choices;
        this.declineProbability = driver.settings.declineProbability();
        // Filled before any task thread starts and never changed in structure: each task thread
        // reads the map and writes only its own array.
        driver.graph.tasks().forEach(t -> {
            String task = t.id();
            barrierQuestions.put(task, question(() -> coordinator.nextBarrierFor(task)));
            abortNewsQuestions.put(task, question(() -> coordinator.nextAbortNotificationFor(task)));
        });
    }

    /** From now on every call carries the clocks of causal trace {@code c}. Before the run. */
    void recordCausally(CausalWiring c) {
        this.causal = c;
    }

    /** See {@link #generation}; any thread. */
    void coordinatorChanged() {
        generation.changed();
    }

    /** A read or write of the coordinator's state; with a causal trace, carrying the clocks. */
    private <T> T at(boolean writes, Predicate<T> isNews, Supplier<T> call) {
        return causal.atCoordinator(writes, false, isNews, call);
    }

    private void write(Runnable call) {
        at(true, null, () -> {
            call.run();
            return null;
        });
    }

    /** A question that reads the coordinator's state through {@link #at}, never answered yet. */
    private Question question(Supplier<OptionalLong> call) {
        return new Question(NewsGeneration.neverAnswered(), () -> at(false, OptionalLong::isPresent, call));
    }

    /** {@code task}'s question, unless it was told "nothing" by it since the coordinator last changed. */
    private OptionalLong news(Map<String, Question> questions, String task) {
        Question q = questions.get(task);
        if (q == null) {
            throw new IllegalArgumentException("not a task of this job: " + task);
        }
        return generation.news(q.mark(), choices.mayCacheNoNews(), q.ask());
    }

    @Override
    public OptionalLong nextBarrierFor(String sourceTask) {
        return news(barrierQuestions, sourceTask);
    }

    @Override
    public void acknowledge(Acknowledgement ack) {
        acknowledge(ack, false);
    }

    /**
     * As {@link #acknowledge}, between the task's steps: with a causal trace the coordinator's clock
     * takes the task's clock after its last event ({@code eventInside}), not the number of its
     * next one, which may be a step that needs this acknowledgement's completion (a sink's
     * {@code NotifyCheckpointComplete}): a cycle.
     */
    @Override
    public void acknowledgeBetweenSteps(Acknowledgement ack) {
        acknowledge(ack, true);
    }

    private void acknowledge(Acknowledgement ack, boolean betweenSteps) {
        // No move of the generation: an acknowledgement gives no task a barrier to inject or news
        // to take (it aborts nothing and completes nothing; the acknowledging task asks again on
        // its own). A move here made every task ask again right after a checkpoint's last
        // acknowledgement, and so wait on the coordinator's lock while the store wrote it.
        AckResult result = causal.atCoordinator(true, betweenSteps, null, () -> coordinator.acknowledge(ack));
        if (result == AckResult.ALL_ACKNOWLEDGED) {
            driver.addCompletable(ack.checkpointId());
            choices.wakeCoordinator().run();
        }
    }

    @Override
    public long triggerTime(long checkpointId) {
        Long t = driver.triggerTimes.get(checkpointId);
        return t == null ? now() : t;
    }

    @Override
    public long now() {
        return clock.getAsLong();
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
     * Due {@code timeoutMillis} after the trigger, also for a checkpoint aborted meanwhile that the
     * task has not learnt of (the spec's TimeoutAlignment: the task's timer knows no more than the
     * task; so does Flink's). In the simulation it fires, as a seeded choice, once due.
     */
    @Override
    public boolean alignmentTimedOut(long checkpointId, long timeoutMillis) {
        return now() - triggerTime(checkpointId) >= timeoutMillis * choices.ticksPerMilli();
    }

    @Override
    public OptionalLong nextAbortNotificationFor(String task) {
        return news(abortNewsQuestions, task);
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

    /** Drawn only when declines are on, so that the draws of every other run stay as they were. */
    @Override
    public boolean declinesOnFirstBarrier(String task, long checkpointId) {
        return declineProbability > 0 && choices.declineDraws().getAsDouble() < declineProbability;
    }

    @Override
    public void declineCheckpoint(String task, long checkpointId) {
        // The decline and its event (AbortCheckpoint, recorded on this task's thread) together,
        // so that the coordinator's clock includes the event.
        boolean declined = causal.atCoordinator(true, true, null, () -> driver.decline(task, checkpointId));
        coordinatorChanged();
        if (declined) {
            choices.wakeCoordinator().run(); // it wakes the tasks with the news
        }
    }

    @Override
    public void taskEnded(Acknowledgement finalState) {
        List<Long> all = at(true, null, () -> coordinator.taskEnded(finalState));
        coordinatorChanged();
        all.forEach(driver::addCompletable);
        choices.wakeCoordinator().run(); // completions, or the end of the run
    }
}
