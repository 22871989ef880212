// Longer than 500 lines: one lock guards all of the coordinator's state, so its actions stay together as one class of critical sections.
package dev.consistentcut.checkpoint;

import dev.consistentcut.annotation.TestSeam;
import dev.consistentcut.message.Record;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.LongSupplier;

/**
 * Triggers checkpoints, collects the tasks' acknowledgements, and completes or aborts each
 * checkpoint: the spec actions {@code TriggerCheckpoint}, {@code CompleteCheckpoint}, {@code
 * AbortCheckpoint} and the coordinator's share of {@code FailAndRestore}.
 *
 * <p><b>In flight.</b> A checkpoint is <em>in flight</em> from its trigger until every task has
 * acknowledged it, unless a failure discarded it first. An aborted checkpoint stays in flight
 * until every task has acknowledged it, because its barriers still travel; counting it keeps an
 * unaligned task from ever seeing two checkpoints' barriers at once. At most {@code maxConcurrent}
 * checkpoints are in flight (1 for unaligned jobs). The TLA+ spec uses the same definition.
 *
 * <p><b>Invariant.</b> Each checkpoint's status moves only {@code PENDING -> COMPLETED} or
 * {@code PENDING -> ABORTED}; so a checkpoint is completed or aborted, never both, and completed
 * at most once. Completing a checkpoint subsumes (aborts) every older one still PENDING, so the
 * latest completed checkpoint only moves forward. A checkpoint is completed only when every task acknowledged it, and then it is in
 * the store before it is reported COMPLETED. Ids are 1, 2, ... and never reused, also across
 * failures; they start above every id the store already holds, so no stored checkpoint is ever
 * overwritten.
 *
 * <p><b>Threading contract.</b> Thread-safe: any thread may call any method. Every method holds
 * one lock for its whole duration, including the store write in {@link #completeCheckpoint}
 * (acceptable for a reference engine: acknowledgements wait while a checkpoint is written; the
 * runtime's tasks do not ask for news between a checkpoint's last acknowledgement and its
 * completion, so they do not wait). No
 * method blocks except on that lock and on the store; the coordinator starts no threads, and the
 * runtime drives time through {@code clock}. Memory consistency: actions of a task before its
 * {@link #acknowledge} happen-before the actions of any thread after a later call that observes
 * that acknowledgement (e.g. the {@link #completeCheckpoint} that includes it).
 */
public final class CheckpointCoordinator {

    private final Set<String> tasks;
    private final Set<String> channels;
    private final int maxConcurrent;
    private final CheckpointStore store;
    private final LongSupplier clock;

    private final Object lock = new Object();
    // All fields below are guarded by lock.
    private long nextId;
    private boolean shutdown;
    /** Every checkpoint ever triggered by this coordinator. */
    private final Map<Long, Attempt> attempts = new HashMap<>();
    /** Those still in flight or still PENDING; the others have dropped their acknowledgements. */
    private final TreeMap<Long, Attempt> open = new TreeMap<>();
    private final List<Long> completed = new ArrayList<>();
    private CompletedCheckpoint latest;

    /** Flink's lifecycle (default): an aborted checkpoint leaves flight at once and tasks are told. */
    private boolean abortsReachTasks = true;
    /**
     * Aborted checkpoints each task has not yet been notified of (only with abortsReachTasks):
     * the spec's {@code AbortNews}. Filled on every PENDING -> ABORTED, emptied by a failure.
     */
    private final Map<String, TreeSet<Long>> abortNews = new HashMap<>();
    /**
     * Tasks that have ended (FLIP-147), with an acknowledgement template of their final state:
     * they take no part in later checkpoints, which record that final state instead. Emptied by
     * a failure (the restored tasks run again).
     */
    private final Map<String, Acknowledgement> ended = new HashMap<>();
    /** Alternating mode: checkpoints triggered as savepoints (forced aligned, never switched). */
    private final Set<Long> savepoints = new HashSet<>();
    /** Alternating mode: per checkpoint, the tasks that handled it unaligned (the spec's {@code switchedAt}). */
    private final Map<Long, Set<String>> switched = new HashMap<>();
    /** Counts aborts, so that a threaded runtime knows when to wake its tasks. */
    private long abortCount;
    /** Tasks told of completed checkpoints (transactional sinks); set by the runtime. */
    private final Set<String> completionListeners = new HashSet<>();
    /**
     * Per listening task: the newest completed checkpoint it has not been notified of (a newer
     * completion subsumes an older notification, since a sink commits everything up to it).
     * Emptied by a failure: notifications in flight are lost.
     */
    private final Map<String, Long> completeNews = new HashMap<>();

    /**
     * @param tasks every task instance id that must acknowledge a checkpoint (sources and operators)
     * @param channels every channel id: a completed checkpoint lists each, with an empty list where
     *     nothing was persisted
     * @param maxConcurrent most checkpoints in flight at once, >= 1
     * @param store where completed checkpoints go; its {@code latest()} at construction becomes
     *     {@link #latestCompleted()} (a runtime starting from the initial state passes an empty
     *     store, or restores from that checkpoint first)
     * @param clock the runtime's time: {@code System::nanoTime} threaded, a step counter simulated
     */
    public CheckpointCoordinator(
            Set<String> tasks, Set<String> channels, int maxConcurrent, CheckpointStore store, LongSupplier clock) {
        this.tasks = Set.copyOf(Objects.requireNonNull(tasks, "tasks"));
        this.channels = Set.copyOf(Objects.requireNonNull(channels, "channels"));
        this.store = Objects.requireNonNull(store, "store");
        this.clock = Objects.requireNonNull(clock, "clock");
        if (this.tasks.isEmpty()) {
            throw new IllegalArgumentException("a coordinator needs at least one task to acknowledge");
        }
        if (maxConcurrent < 1) {
            throw new IllegalArgumentException("maxConcurrent must be >= 1, got " + maxConcurrent);
        }
        this.maxConcurrent = maxConcurrent;
        this.latest = store.latest().orElse(null);
        long highest = latest == null ? 0 : latest.id();
        for (long id : store.retainedIds()) {
            highest = Math.max(highest, id);
        }
        this.nextId = highest + 1;
    }

    /** Aligned barriers: up to {@code maxConcurrent} checkpoints in flight. */
    public static CheckpointCoordinator forAligned(
            Set<String> tasks, Set<String> channels, int maxConcurrent, CheckpointStore store, LongSupplier clock) {
        return new CheckpointCoordinator(tasks, channels, maxConcurrent, store, clock);
    }

    /** Unaligned barriers: at most one checkpoint in flight, so a task never sees two at once. */
    public static CheckpointCoordinator forUnaligned(
            Set<String> tasks, Set<String> channels, CheckpointStore store, LongSupplier clock) {
        return new CheckpointCoordinator(tasks, channels, 1, store, clock);
    }

    /**
     * Chooses the abort semantics before the first trigger: true (the default, Flink's) makes an
     * aborted checkpoint leave flight at once and queues a {@code NotifyCheckpointAborted} for
     * every task; false keeps it in flight until every task acknowledged it and tells no task
     * (the spec's model option {@code AbortsReachTasks = FALSE}).
     */
    public void setAbortsReachTasks(boolean value) {
        synchronized (lock) {
            abortsReachTasks = value;
        }
    }

    /**
     * The tasks that get a {@code NotifyCheckpointComplete} for each completed checkpoint (the
     * transactional sinks; Flink notifies every task, this engine only those that act on it).
     */
    public void setCompletionListeners(Set<String> listeners) {
        synchronized (lock) {
            for (String t : listeners) {
                requireKnownTask(t, "listening for completed checkpoints");
            }
            completionListeners.clear();
            completionListeners.addAll(listeners);
        }
    }

    // ---------------------------------------------------------------- spec actions

    /**
     * {@code TriggerCheckpoint}: starts the next checkpoint, PENDING, with the trigger time from
     * the clock.
     *
     * @return its id; empty, and nothing changed, when {@code maxConcurrent} checkpoints are in
     *     flight or the coordinator is shut down
     */
    public OptionalLong triggerCheckpoint() {
        return triggerCheckpoint(false);
    }

    /**
     * {@code TriggerCheckpoint} of a checkpoint or, with {@code savepoint}, of a savepoint: a
     * forced-aligned checkpoint whose barriers carry the flag, so that no task switches it to
     * unaligned (FLINK-33693 was a savepoint that switched). As {@link #triggerCheckpoint()}.
     */
    public OptionalLong triggerCheckpoint(boolean savepoint) {
        return trigger(savepoint);
    }

    /** Whether {@code id} was triggered as a savepoint. */
    public boolean isSavepoint(long id) {
        synchronized (lock) {
            return savepoints.contains(id);
        }
    }

    /**
     * Alternating mode: task {@code task} handles {@code id} unaligned from now on (the spec's
     * {@code switchedAt[c]}), by its own {@code TimeoutAlignment} or an unaligned barrier.
     */
    public void alignmentSwitched(String task, long id) {
        synchronized (lock) {
            requireKnownTask(task, "switching checkpoint " + id);
            switched.computeIfAbsent(id, k -> new HashSet<>()).add(task);
        }
    }

    /** Whether some task switched {@code id} to unaligned (the spec's {@code Switched(c)}). */
    public boolean switched(long id) {
        synchronized (lock) {
            return switched.containsKey(id);
        }
    }

    /** The tasks that handled {@code id} unaligned (empty if none). */
    public Set<String> switchedTasks(long id) {
        synchronized (lock) {
            return Set.copyOf(switched.getOrDefault(id, Set.of()));
        }
    }

    private OptionalLong trigger(boolean savepoint) {
        synchronized (lock) {
            if (shutdown || inFlightCount() >= maxConcurrent) {
                return OptionalLong.empty();
            }
            Attempt a = new Attempt(nextId++, clock.getAsLong());
            if (savepoint) {
                savepoints.add(a.id); // before any source can see the checkpoint
            }
            attempts.put(a.id, a);
            open.put(a.id, a);
            for (Acknowledgement finalState : ended.values()) {
                a.record(finalState.withCheckpointId(a.id));
            }
            return OptionalLong.of(a.id);
        }
    }

    /**
     * Whether {@link #triggerCheckpoint} would start a checkpoint now: fewer than
     * {@code maxConcurrent} hold a place (see {@code Attempt.holdsPlace}), not shut down.
     */
    public boolean canTrigger() {
        synchronized (lock) {
            return !shutdown && inFlightCount() < maxConcurrent;
        }
    }

    /**
     * The checkpoint whose barrier {@code sourceTask} must inject next: the lowest in-flight id
     * (pending or aborted: aborted barriers still travel) that source has not acknowledged yet.
     * A source injects a barrier and acknowledges it in one step, so it injects each barrier once
     * and in id order. Non-blocking.
     *
     * @return empty when there is none
     * @throws IllegalArgumentException for an unknown task
     */
    public OptionalLong nextBarrierFor(String sourceTask) {
        synchronized (lock) {
            requireKnownTask(sourceTask, "asking for its next barrier");
            for (Attempt a : open.values()) {
                if (a.inFlight() && !a.acked.contains(sourceTask)) {
                    return OptionalLong.of(a.id);
                }
            }
            return OptionalLong.empty();
        }
    }

    /**
     * Records one task's contribution ({@code InjectBarrier} for a source, {@code ReceiveBarrier}
     * for an operator).
     *
     * @return ACCEPTED or ALL_ACKNOWLEDGED for a pending checkpoint (after the latter the caller
     *     calls {@link #completeCheckpoint}); IGNORED_ABORTED (the ack still counts towards the
     *     aborted checkpoint leaving flight); IGNORED_DISCARDED when a failure discarded it
     * @throws IllegalArgumentException for an unknown task, an id never triggered, a channel id
     *     not in the job, or channel state for a channel another task already gave the same part
     *     for; nothing is recorded
     * @throws IllegalStateException for a second acknowledgement from the same task for the same
     *     checkpoint; nothing is recorded
     */
    public AckResult acknowledge(Acknowledgement ack) {
        Objects.requireNonNull(ack, "acknowledgement");
        String task = ack.task();
        long id = ack.checkpointId();
        synchronized (lock) {
            requireKnownTask(task, "acknowledging checkpoint " + id);
            Attempt a = attempts.get(id);
            if (a == null) {
                throw new IllegalArgumentException(
                        "task " + task + " acknowledged checkpoint " + id + ", which was never triggered");
            }
            if (a.discarded) {
                return AckResult.IGNORED_DISCARDED;
            }
            if (abortsReachTasks && a.status == CheckpointStatus.ABORTED && !a.acked.contains(task)) {
                // the task had not yet learnt of the abort; the checkpoint is out of flight already
                return AckResult.IGNORED_ABORTED;
            }
            if (!a.inFlight() || a.acked.contains(task)) {
                throw new IllegalStateException(
                        "duplicate acknowledgement from task " + task + " for checkpoint " + id);
            }
            return a.record(ack);
        }
    }

    /**
     * {@code DeclineCheckpoint(t, c)}: task {@code task} gave up checkpoint {@code id} (a newer
     * checkpoint's barrier, cancellation or abort came first) and will never acknowledge it, so a
     * PENDING one is aborted at once, as {@code AbortCheckpoint} (Flink: a declined checkpoint
     * fails).
     *
     * @return whether this aborted it (false: it was no longer pending)
     */
    public boolean declineCheckpoint(String task, long id) {
        synchronized (lock) {
            requireKnownTask(task, "declining checkpoint " + id);
            Attempt a = attempts.get(id);
            if (a == null || a.status != CheckpointStatus.PENDING || a.discarded) {
                return false;
            }
            markAborted(a);
            return true;
        }
    }

    /**
     * Task {@code finalState.task()} has ended (a source sent end of partition, an operator took
     * the last one): from now on it takes no part in checkpoints (FLIP-147). Every in-flight
     * checkpoint it has not acknowledged, and every later one, gets its final state instead: a
     * source's final offset, an operator's final snapshot (nothing reaches it any more, so that
     * state belongs to every later cut). {@code finalState}'s checkpoint id is ignored.
     *
     * @return the checkpoints this made ALL_ACKNOWLEDGED (the caller completes them)
     */
    public List<Long> taskEnded(Acknowledgement finalState) {
        Objects.requireNonNull(finalState, "final state");
        synchronized (lock) {
            requireKnownTask(finalState.task(), "ending");
            ended.put(finalState.task(), finalState);
            List<Long> all = new ArrayList<>();
            for (Attempt a : List.copyOf(open.values())) {
                if (!a.discarded && a.inFlight() && !a.acked.contains(finalState.task())
                        && a.record(finalState.withCheckpointId(a.id)) == AckResult.ALL_ACKNOWLEDGED) {
                    all.add(a.id);
                }
            }
            return all;
        }
    }

    /** Whether task {@code task} has ended (see {@link #taskEnded}). */
    public boolean hasEnded(String task) {
        synchronized (lock) {
            return ended.containsKey(task);
        }
    }

    /** Whether every task acknowledged pending checkpoint {@code id} (all ended tasks, say, at its trigger). */
    public boolean allAcknowledged(long id) {
        synchronized (lock) {
            Attempt a = attempts.get(id);
            return a != null && a.status == CheckpointStatus.PENDING && !a.discarded && a.acked.size() == tasks.size();
        }
    }

    /**
     * The oldest aborted checkpoint task {@code task} has not been notified of yet (only when
     * aborts reach tasks): {@code NotifyCheckpointAborted(task, c)} is enabled for it.
     */
    public OptionalLong nextAbortNotificationFor(String task) {
        synchronized (lock) {
            TreeSet<Long> news = abortNews.get(task);
            return news == null || news.isEmpty() ? OptionalLong.empty() : OptionalLong.of(news.first());
        }
    }

    /** Task {@code task} took the notification of checkpoint {@code id}'s abort. */
    public void abortNotified(String task, long id) {
        synchronized (lock) {
            TreeSet<Long> news = abortNews.get(task);
            if (news == null || !news.remove(id)) {
                throw new IllegalStateException("task " + task + " took a notification of checkpoint " + id
                        + "'s abort, but none is waiting for it");
            }
        }
    }

    /**
     * The coordinator's side of {@code NotifyCheckpointComplete}: after {@code CompleteCheckpoint(id)}
     * every listening task is to be notified of {@code id} (the runtime calls this once the
     * checkpoint is complete; a failure before a task took it loses the notification).
     *
     * @throws IllegalStateException if {@code id} is not COMPLETED
     */
    public void notifyTasksOfCompletion(long id) {
        synchronized (lock) {
            Attempt a = attempts.get(id);
            if (a == null || a.status != CheckpointStatus.COMPLETED) {
                throw new IllegalStateException("notifying tasks of checkpoint " + id + ", which is not completed");
            }
            for (String t : completionListeners) {
                completeNews.merge(t, id, Math::max);
            }
        }
    }

    /** The newest completed checkpoint {@code task} has not been notified of: {@code NotifyCheckpointComplete(task, c)} is enabled. */
    public OptionalLong nextCompleteNotificationFor(String task) {
        synchronized (lock) {
            Long c = completeNews.get(task);
            return c == null ? OptionalLong.empty() : OptionalLong.of(c);
        }
    }

    /** Task {@code task} took the notification of checkpoint {@code id}'s completion (a newer one waiting stays). */
    public void completeNotified(String task, long id) {
        synchronized (lock) {
            Long c = completeNews.get(task);
            if (c == null || c < id) {
                throw new IllegalStateException("task " + task + " took a notification of checkpoint " + id
                        + "'s completion, but " + (c == null ? "none is waiting" : "only one of " + c + " is waiting"));
            }
            if (c == id) {
                completeNews.remove(task);
            }
        }
    }

    /** How many checkpoints were aborted so far: changes when tasks may have news. */
    public long abortCount() {
        synchronized (lock) {
            return abortCount;
        }
    }

    /**
     * {@code CompleteCheckpoint}: if {@code id} is PENDING and every task acknowledged it, builds
     * the {@link CompletedCheckpoint}, writes it to the store, makes it the latest (unless a
     * higher id already completed) and marks it COMPLETED. Each channel's state is the receiver's
     * {@code inputChannelState} part followed by the sender's {@code outputChannelState} part.
     *
     * @return the completed checkpoint; empty, and nothing changed, otherwise (unknown id, not
     *     pending, acknowledgements missing, or already completed)
     * @throws java.io.UncheckedIOException when the store fails: the checkpoint is then ABORTED
     *     (it never became restorable) and the store's previous latest stays
     */
    public Optional<CompletedCheckpoint> completeCheckpoint(long id) {
        synchronized (lock) {
            Attempt a = attempts.get(id);
            if (a == null || a.status != CheckpointStatus.PENDING || a.inFlight()) {
                return Optional.empty();
            }
            CompletedCheckpoint c = a.build(clock.getAsLong());
            try {
                store.store(c);
            } catch (RuntimeException e) {
                markAborted(a);
                throw e;
            }
            a.status = CheckpointStatus.COMPLETED;
            settle(a);
            completed.add(id);
            latest = c;
            // Subsume: an older checkpoint still PENDING can no longer become the latest, so it
            // is aborted, as Flink's coordinator does and as the spec's CompleteCheckpoint says.
            // Without this, completing it later would move "latest" (and the store's pointer)
            // backwards. Its barriers still travel, so it stays in flight until fully acked.
            for (Attempt older : List.copyOf(open.headMap(id).values())) {
                if (older.status == CheckpointStatus.PENDING) {
                    markAborted(older);
                }
            }
            return Optional.of(c);
        }
    }

    /** {@code AbortCheckpoint}: PENDING becomes ABORTED. False, and nothing changed, otherwise. */
    public boolean abortCheckpoint(long id) {
        synchronized (lock) {
            Attempt a = attempts.get(id);
            if (a == null || a.status != CheckpointStatus.PENDING) {
                return false;
            }
            markAborted(a);
            return true;
        }
    }

    /**
     * Aborts every PENDING checkpoint triggered more than {@code timeout} clock units ago.
     *
     * @return how many it aborted
     */
    public int abortExpired(long timeout) {
        synchronized (lock) {
            long now = clock.getAsLong();
            int aborted = 0;
            for (Attempt a : new ArrayList<>(open.values())) {
                if (a.status == CheckpointStatus.PENDING && now - a.triggerTime > timeout) {
                    markAborted(a);
                    aborted++;
                }
            }
            return aborted;
        }
    }

    /**
     * The coordinator's share of {@code FailAndRestore}: every PENDING checkpoint becomes ABORTED
     * and every checkpoint not completed is discarded (its later acknowledgements get
     * IGNORED_DISCARDED and it no longer counts as in flight). Ids keep counting up.
     *
     * @return the store's latest checkpoint (read from the store, so a corrupt newest file falls
     *     back to an older one), which also becomes {@link #latestCompleted()}; empty means restore
     *     the initial state
     */
    public Optional<CompletedCheckpoint> failAndRestore() {
        synchronized (lock) {
            // Every attempt not completed: the open ones, and (when aborts reach tasks) the aborted
            // ones that left flight at once but whose barriers and acknowledgements may still come.
            for (Attempt a : new ArrayList<>(attempts.values())) {
                if (a.status == CheckpointStatus.COMPLETED || a.discarded) {
                    continue;
                }
                if (a.status == CheckpointStatus.PENDING) {
                    a.status = CheckpointStatus.ABORTED;
                }
                a.discarded = true;
                settle(a);
            }
            abortNews.clear();
            completeNews.clear(); // notifications not yet taken are lost
            ended.clear();
            latest = store.latest().orElse(null);
            return Optional.ofNullable(latest);
        }
    }

    /** No checkpoint is triggered after this; everything else keeps working. */
    public void shutdown() {
        synchronized (lock) {
            shutdown = true;
        }
    }

    // ---------------------------------------------------------------- queries

    /** The checkpoint a restore would use now: the newest completed (or recovered) one. */
    public Optional<CompletedCheckpoint> latestCompleted() {
        synchronized (lock) {
            return Optional.ofNullable(latest);
        }
    }

    /** NONE for an id this coordinator never triggered. */
    public CheckpointStatus status(long id) {
        synchronized (lock) {
            Attempt a = attempts.get(id);
            return a == null ? CheckpointStatus.NONE : a.status;
        }
    }

    /** Ids in flight (see the class comment), ascending. */
    public Set<Long> inFlight() {
        synchronized (lock) {
            Set<Long> ids = new TreeSet<>();
            for (Attempt a : open.values()) {
                if (a.inFlight()) {
                    ids.add(a.id);
                }
            }
            return ids;
        }
    }

    /** Ids this coordinator completed, in completion order. */
    public List<Long> completedIds() {
        synchronized (lock) {
            return List.copyOf(completed);
        }
    }

    public Set<String> tasks() {
        return tasks;
    }

    public Set<String> channels() {
        return channels;
    }

    public int maxConcurrent() {
        return maxConcurrent;
    }

    /**
     * For the memory-bound tests: checkpoints held in full (in flight or PENDING), and the
     * acknowledgements and channel claims held by all checkpoints. A decided checkpoint drops its
     * acknowledgements, and one also out of flight drops its place, so a long job stays bounded.
     */
    @TestSeam
    int[] heldForTests() {
        synchronized (lock) {
            int acks = 0;
            for (Attempt a : attempts.values()) {
                acks += a.acks.size() + a.inputClaims.size() + a.outputClaims.size();
            }
            return new int[] {open.size(), acks};
        }
    }

    // ---------------------------------------------------------------- internals

    private int inFlightCount() {
        int n = 0;
        for (Attempt a : open.values()) {
            if (a.holdsPlace()) {
                n++;
            }
        }
        return n;
    }

    /** PENDING -> ABORTED; with abortsReachTasks every task not ended gets the news. */
    private void markAborted(Attempt a) {
        a.status = CheckpointStatus.ABORTED;
        abortCount++;
        if (abortsReachTasks) {
            for (String t : tasks) {
                if (!ended.containsKey(t)) {
                    abortNews.computeIfAbsent(t, k -> new TreeSet<>()).add(a.id);
                }
            }
        }
        settle(a);
    }

    private void requireKnownTask(String task, String doing) {
        if (!tasks.contains(task)) {
            throw new IllegalArgumentException(
                    "unknown task " + task + " " + doing + "; the job's tasks are " + new TreeSet<>(tasks));
        }
    }

    /**
     * Drops what an attempt no longer needs: a decided one its acknowledgements, and one that is
     * also out of flight its place among the open attempts (it then keeps only its status and
     * who acknowledged it, for duplicate detection).
     */
    private void settle(Attempt a) {
        if (a.status != CheckpointStatus.PENDING) {
            a.acks.clear();
            a.inputClaims.clear();
            a.outputClaims.clear();
            if (!a.inFlight()) {
                open.remove(a.id);
            }
        }
    }

    /** One triggered checkpoint. Guarded by the coordinator's lock. */
    private final class Attempt {
        final long id;
        final long triggerTime;
        CheckpointStatus status = CheckpointStatus.PENDING;
        boolean discarded;
        /** Tasks that acknowledged, kept while in flight (aborted ones too). */
        final Set<String> acked = new HashSet<>();
        /** Acknowledgements of a pending checkpoint, in the order they arrived. */
        final Map<String, Acknowledgement> acks = new HashMap<>();
        /** Channel id to the task that gave its input (receiver) part, resp. output (sender) part. */
        final Map<String, String> inputClaims = new HashMap<>();
        final Map<String, String> outputClaims = new HashMap<>();

        Attempt(long id, long triggerTime) {
            this.id = id;
            this.triggerTime = triggerTime;
        }

        boolean inFlight() {
            if (abortsReachTasks) {
                return !discarded && status == CheckpointStatus.PENDING && acked.size() < tasks.size();
            }
            return !discarded && acked.size() < tasks.size();
        }

        /**
         * Whether it takes one of the {@code maxConcurrent} places: in flight, or (when aborts
         * reach the tasks) pending at all, as the spec's {@code InFlight} and Flink's pending
         * checkpoints, which count against the limit until finalized. A checkpoint every task
         * acknowledged keeps its place until {@code CompleteCheckpoint} (trace validation rejected
         * a trigger in that window).
         */
        boolean holdsPlace() {
            return abortsReachTasks ? status == CheckpointStatus.PENDING : inFlight(); // a failure aborts every pending one
        }

        /** Records an acknowledgement already checked for being known, live and not a duplicate. */
        AckResult record(Acknowledgement ack) {
            checkChannels(ack);
            acked.add(ack.task());
            if (status == CheckpointStatus.ABORTED) {
                settle(this);
                return AckResult.IGNORED_ABORTED;
            }
            acks.put(ack.task(), ack);
            claimChannels(ack);
            return inFlight() ? AckResult.ACCEPTED : AckResult.ALL_ACKNOWLEDGED;
        }

        void checkChannels(Acknowledgement ack) {
            checkChannels(ack, ack.inputChannelState().keySet(), inputClaims, "input (receiver)");
            checkChannels(ack, ack.outputChannelState().keySet(), outputClaims, "output (sender)");
        }

        private void checkChannels(Acknowledgement ack, Set<String> ids, Map<String, String> claims, String part) {
            for (String channel : ids) {
                if (!channels.contains(channel)) {
                    throw new IllegalArgumentException("task " + ack.task() + ", checkpoint " + id
                            + ": channel state for unknown channel " + channel + "; the job's channels are "
                            + new TreeSet<>(channels));
                }
                String other = claims.get(channel);
                if (other != null) {
                    throw new IllegalArgumentException("task " + ack.task() + ", checkpoint " + id + ": channel "
                            + channel + " already has its " + part + " state from task " + other);
                }
            }
        }

        void claimChannels(Acknowledgement ack) {
            ack.inputChannelState().keySet().forEach(ch -> inputClaims.put(ch, ack.task()));
            ack.outputChannelState().keySet().forEach(ch -> outputClaims.put(ch, ack.task()));
        }

        CompletedCheckpoint build(long completionTime) {
            Map<String, Long> offsets = new HashMap<>();
            Map<String, TaskSnapshot> snapshots = new HashMap<>();
            Map<String, Long> startDelay = new HashMap<>();
            Map<String, Long> alignment = new HashMap<>();
            for (Acknowledgement ack : acks.values()) {
                if (ack.isSource()) {
                    offsets.put(ack.task(), ack.sourceOffset());
                } else {
                    snapshots.put(ack.task(), ack.snapshot());
                }
                startDelay.put(ack.task(), ack.startDelay());
                alignment.put(ack.task(), ack.alignmentDuration());
            }
            Map<String, List<Record>> channelState = new HashMap<>();
            long persisted = 0;
            for (String channel : channels) {
                List<Record> records = new ArrayList<>();
                String receiver = inputClaims.get(channel);
                if (receiver != null) {
                    records.addAll(acks.get(receiver).inputChannelState().get(channel));
                }
                String sender = outputClaims.get(channel);
                if (sender != null) {
                    records.addAll(acks.get(sender).outputChannelState().get(channel));
                }
                channelState.put(channel, records);
                persisted += records.size();
            }
            CheckpointStats stats = new CheckpointStats(triggerTime, completionTime, startDelay, alignment,
                    persisted, CheckpointCodec.channelStateSize(channelState), CheckpointCodec.stateSize(snapshots));
            return new CompletedCheckpoint(id, offsets, snapshots, channelState, stats);
        }
    }
}
