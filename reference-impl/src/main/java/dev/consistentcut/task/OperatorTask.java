// Longer than 500 lines: the task's step machine, one method per spec action over one shared task state; splitting it would spread that state.
package dev.consistentcut.task;

import dev.consistentcut.barrier.BarrierHandlerContext;
import dev.consistentcut.barrier.BarrierHandlerState;
import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.channel.Channel;
import dev.consistentcut.checkpoint.Acknowledgement;
import dev.consistentcut.checkpoint.MaterialisedUploads;
import dev.consistentcut.checkpoint.TaskSnapshot;
import dev.consistentcut.graph.PhysicalGraph;
import dev.consistentcut.graph.PhysicalGraph.ChannelSpec;
import dev.consistentcut.message.Barrier;
import dev.consistentcut.message.CancelBarrier;
import dev.consistentcut.message.EndOfPartition;
import dev.consistentcut.message.Message;
import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import dev.consistentcut.message.RecordLedger;
import dev.consistentcut.operator.Operator;
import dev.consistentcut.sink.TransactionalSink;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * An operator task instance (sinks included): runs its {@link Operator} over the records of its
 * inputs and handles barriers through its {@link BarrierHandlerState}. Steps:
 * {@link #processRecord(int)} ({@code ProcessRecord}), {@link #receiveBarrier(int)}
 * ({@code ReceiveBarrier}), {@link #receiveCancelBarrier(int)} ({@code ReceiveCancelBarrier}) and
 * {@link #receiveEndOfPartition(int)} ({@code ReceiveEndOfPartition}), per physical input, and
 * {@link #notifyCheckpointAborted(long)} ({@code NotifyCheckpointAborted}) and
 * {@link #notifyCheckpointComplete(long)} ({@code NotifyCheckpointComplete}) from the coordinator.
 *
 * <p>Transactional sinks ({@link TransactionalSink}): the task pre-commits the sink's
 * open transaction in each snapshot (right before the state is taken) and at end of input (before
 * the final state), passes the coordinator's completion notifications on (commit), and on restore
 * lets the sink re-commit the restored checkpoint's transactions and abort the rest. An ended
 * transactional sink still takes completion notifications: the final checkpoint commits its last
 * transaction (FLIP-147).
 *
 * <p>Lifecycle: an input that delivered its end of partition has ended and counts as having
 * delivered every current and later barrier; when every input has ended the task forwards end
 * of partition on its outputs, hands its final state to the coordinator and has no more steps.
 *
 * <p>Besides the operator's state the task keeps the ledger {@link #processed()}, the spec's bag
 * {@code processed[t]}: how often it processed each record. The ledger is snapshotted with the
 * operator state; the invariants are stated over it. It can be turned off for benchmarks (then
 * snapshots carry an empty ledger and the invariants cannot be checked).
 *
 * <p>Checkpoint writes: the step that snapshots freezes the acknowledgement (the immutable
 * snapshot, the channel state copied) and hands the write of the snapshot's new segments to the
 * task's writer ({@link SerialWrites}: one at a time, in checkpoint order); the acknowledgement
 * goes out from the task's thread once the write is done ({@link #acknowledgeWritten}). With the
 * calling thread as writer (the simulation) that is within the same step.
 *
 * <p>Threading: see {@link Task}. The writer's thread touches only the frozen snapshot, the store
 * and a {@code PendingWrite}'s flags; everything else stays on the task's thread.
 */
public final class OperatorTask implements Task {

    private final String id;
    private final PhysicalGraph graph;
    private final Supplier<? extends Operator> factory;
    private final List<Channel> inputs;
    private final int[] logicalInput;
    private final List<Channel> outputs;
    /** {@code graph.route(id, key)} without a lookup per record. */
    private final PhysicalGraph.Router router;
    private final BarrierMode mode;
    private final CoordinatorGateway coordinator;
    private final RunObserver observer;
    private final boolean trackProcessed;
    private final Context context = new Context();

    private Operator operator;
    private BarrierHandlerState handler;
    /** The spec's {@code processed[t]}. */
    private RecordLedger processed = new RecordLedger();
    /**
     * The materialiser of the threaded runtime's tasks: one daemon thread, so materialisations of
     * several tasks take turns instead of taking the cores from the tasks (Flink: one
     * materialisation thread per task manager, the changelog state backend's periodic
     * materialisation).
     */
    public static final Executor BACKGROUND_MATERIALISER = TaskChangelogs.SHARED_MATERIALISER;

    /**
     * The writers of the threaded runtime's tasks: daemon threads, made as needed and ended when
     * idle; each task's writes run on them one at a time and in order ({@link SerialWrites}). Flink:
     * a subtask's asynchronous checkpoint part ({@code AsyncCheckpointRunnable}) runs on the task's
     * async-operations thread pool, not on the task's mailbox thread.
     */
    public static final Executor BACKGROUND_WRITER = java.util.concurrent.Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "checkpoint-writer");
        t.setDaemon(true);
        return t;
    });

    private final Executor materialiser;
    private final MaterialisedUploads uploads;
    /** Where this task's checkpoint writes run, in order ({@link Context#acknowledge}). */
    private final SerialWrites writer;
    /**
     * The checkpoints whose write was handed to {@link #writer} and whose acknowledgement has not
     * gone out, oldest first. Task thread only.
     */
    private final java.util.ArrayDeque<PendingWrite> pendingWrites = new java.util.ArrayDeque<>();
    /** Called by the writer's thread when a write is done: the runtime wakes the task ({@link #onWritten}). */
    private volatile Runnable written = () -> { };
    /** The operator state and {@link #processed} as changelogs: what a snapshot shares with the previous one. */
    private TaskChangelogs changelogs;
    /** The spec's {@code endedInputs[t]}: inputs that delivered their end of partition. */
    private final BitSet endedInputs = new BitSet();
    /** Checkpoints aborted before the task handled them (BarrierHandlerContext.markAborted); their barriers are dropped. */
    private final java.util.TreeSet<Long> abortedAhead = new java.util.TreeSet<>();
    /** Every input has ended and end of partition went on every output: no more steps (but a sink's notifications). */
    private volatile boolean ended;
    /** The operator as a transactional sink, or null (a fresh instance after each restore). */
    private TransactionalSink sink;
    /** Whether the sink has nothing left to commit; readable by the runtime's coordinator thread. */
    private volatile boolean settled = true;
    /** Checkpoint ids whose transactions the last restore re-committed. */
    private List<Long> lastRecommitted = List.of();

    // The checkpoint being handled: what the acknowledgement will carry.
    private long firstBarrierTime;
    private TaskSnapshot pendingSnapshot;
    private long pendingSnapshotId;
    private final Map<String, List<Record>> inputChannelState = new LinkedHashMap<>();
    private final Map<String, List<Record>> outputChannelState = new LinkedHashMap<>();

    /** What the current step did to the checkpoint besides moving messages: a new one per step, for its event. */
    private StepEffects effects = new StepEffects();

    /**
     * @param channels every channel of the job by id; this task uses its inputs and outputs in
     *     {@link PhysicalGraph#inputs}/{@link PhysicalGraph#outputs} order
     * @param trackProcessed keep the {@link #processed()} ledger (needed by every invariant check)
     */
    public OperatorTask(String id, PhysicalGraph graph, Map<String, Channel> channels, BarrierMode mode,
                        CoordinatorGateway coordinator, RunObserver observer, boolean trackProcessed) {
        this(id, graph, channels, mode, coordinator, observer, trackProcessed, Runnable::run);
    }

    /**
     * As the other constructor, with the executor the task's changelogs are materialised on
     * ({@link #BACKGROUND_MATERIALISER} in the threaded runtime, so that no checkpoint waits for
     * one; a queue the simulation runs at a later trigger, so that a seed decides every step;
     * by default the calling thread, within the snapshot that starts it).
     */
    public OperatorTask(String id, PhysicalGraph graph, Map<String, Channel> channels, BarrierMode mode,
                        CoordinatorGateway coordinator, RunObserver observer, boolean trackProcessed,
                        Executor materialiser) {
        this(id, graph, channels, mode, coordinator, observer, trackProcessed, materialiser, MaterialisedUploads.NONE);
    }

    /**
     * As the other constructors, the materialiser writing what it merged to {@code uploads} (the
     * job's checkpoint store's) before the task rebases on it.
     */
    public OperatorTask(String id, PhysicalGraph graph, Map<String, Channel> channels, BarrierMode mode,
                        CoordinatorGateway coordinator, RunObserver observer, boolean trackProcessed,
                        Executor materialiser, MaterialisedUploads uploads) {
        this(id, graph, channels, mode, coordinator, observer, trackProcessed, materialiser, uploads, Runnable::run);
    }

    /**
     * As the other constructors, each checkpoint's write of the task's changes running on {@code
     * writer} ({@link #BACKGROUND_WRITER} in the threaded runtime: the task goes on processing
     * meanwhile and acknowledges when the write is done, {@link #acknowledgeWritten}; the calling
     * thread in the simulation and by default: written and acknowledged within the step that
     * snapshots, so that a seed decides every step).
     */
    public OperatorTask(String id, PhysicalGraph graph, Map<String, Channel> channels, BarrierMode mode,
                        CoordinatorGateway coordinator, RunObserver observer, boolean trackProcessed,
                        Executor materialiser, MaterialisedUploads uploads, Executor writer) {
        this.uploads = Objects.requireNonNull(uploads, "uploads");
        this.writer = new SerialWrites(writer);
        this.materialiser = Objects.requireNonNull(materialiser, "materialiser");
        this.id = Objects.requireNonNull(id, "id");
        this.graph = Objects.requireNonNull(graph, "graph");
        PhysicalGraph.TaskSpec spec = graph.task(id);
        this.factory = graph.job().node(spec.node()).operatorFactory();
        List<ChannelSpec> in = graph.inputs(id);
        this.inputs = in.stream().map(c -> SourceTask.channel(channels, c)).toList();
        this.logicalInput = in.stream().mapToInt(ChannelSpec::logicalInput).toArray();
        this.outputs = graph.outputs(id).stream().map(c -> SourceTask.channel(channels, c)).toList();
        this.router = graph.router(id);
        this.mode = Objects.requireNonNull(mode, "mode");
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
        this.observer = Objects.requireNonNull(observer, "observer");
        this.trackProcessed = trackProcessed;
        reset(null, false);
    }

    @Override
    public String id() {
        return id;
    }

    public int inputCount() {
        return inputs.size();
    }

    /** The user operator (a fresh instance after each restore). */
    public Operator operator() {
        return operator;
    }

    /** The current barrier handler state. */
    public BarrierHandlerState handlerState() {
        return handler;
    }

    /** Whether the handler blocks physical input {@code input} now. */
    public boolean isBlocked(int input) {
        return handler.isBlocked(input);
    }

    /** The ledger {@code processed[t]}: record id to times processed (read-only view). */
    public Map<RecordId, Integer> processed() {
        return Collections.unmodifiableMap(processed);
    }

    /** Whether {@code input} has delivered its end of partition. */
    public boolean inputEnded(int input) {
        return endedInputs.get(input);
    }

    /** Whether the task has ended: every input delivered its end of partition, which it forwarded. */
    public boolean ended() {
        return ended;
    }

    /** Whether this task has no outputs. */
    public boolean isSink() {
        return outputs.isEmpty();
    }

    /**
     * Whether {@code ProcessRecord} is enabled on {@code input}: a record is at its head, the input
     * is not blocked, and every channel on the record's route has room.
     */
    public boolean canProcessRecord(int input) {
        return input >= 0 && input < inputs.size()
                && inputs.get(input).peek() instanceof Record r && !handler.isBlocked(input) && routeHasRoom(r.key());
    }

    /** Whether {@code ReceiveBarrier} is enabled on {@code input}: a barrier is at its head and the input is not blocked. */
    public boolean canReceiveBarrier(int input) {
        return input >= 0 && input < inputs.size()
                && inputs.get(input).peek() instanceof Barrier && !handler.isBlocked(input);
    }

    private boolean routeHasRoom(long key) {
        return hasRoom(router.route(key));
    }

    private boolean hasRoom(int[] route) {
        for (int o : route) {
            if (!outputs.get(o).hasRoom()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Action {@code ProcessRecord(t, e)}: takes the record at the head of {@code input}, lets the
     * handler see it (unaligned: persisted if the input's barrier is still to come), adds it to
     * {@link #processed()}, runs the operator and sends its result on the route.
     *
     * <p>In the threaded runtime an unaligned barrier can arrive in the input's priority lane after
     * the step was chosen (when a record was at the head), and overtake that record. The step then
     * performs {@code ReceiveBarrier} with it instead (a barrier needs no room, so it is enabled
     * too), and reports that. The simulation never sees this: nothing moves between choosing and
     * performing a step.
     */
    public void processRecord(int input) {
        // Decide from one look at the head: it can change from a record to an overtaking barrier
        // (the sender's priority lane), never the other way, and a barrier at the head stays there.
        Message head = input >= 0 && input < inputs.size() ? inputs.get(input).peek() : null;
        boolean enabled = !(head == null || handler.isBlocked(input))
                && (head instanceof Barrier || head instanceof CancelBarrier
                    || (head instanceof Record r && routeHasRoom(r.key())));
        if (!enabled) {
            throw notEnabled("ProcessRecord", input);
        }
        take(input, null);
    }

    /**
     * {@code ProcessRecord(t, input)} again and again, at most {@code max} times, while it stays
     * enabled with a record at the input's head: it stops at anything else there (a barrier, also
     * one that overtakes meanwhile in the priority lane, a cancellation, end of partition, nothing),
     * at a blocked input and at a full channel on the route. What it stops at is then the
     * runtime's next choice. The threaded runtime's hot path ({@link Task#performAgain}).
     *
     * <p>It also stops once a checkpoint's write is done, so that the runtime acknowledges it
     * ({@link #acknowledgeWritten}, before the next step) without waiting for the rest of the
     * batch: a paced sink's batch of 128 records at 1 ms each held the acknowledgement, and so
     * every unaligned checkpoint under heavy backpressure, for over 100 ms. Flink's task likewise
     * takes its mails (the asynchronous part's report among them) between records
     * ({@code MailboxProcessor#runMailboxLoop}).
     *
     * @return how many steps were performed; the last may be a {@code ReceiveBarrier} (or
     *     {@code ReceiveCancelBarrier}) when a barrier overtook between the look at the head and
     *     the take, as in {@link #processRecord}
     */
    public int processRecords(int input, int max) {
        Channel in = inputs.get(input);
        int n = 0;
        while (n < max && in.peek() instanceof Record r && !handler.isBlocked(input) && !writeDone()) {
            int[] route = router.route(r.key()); // once per record: the result keeps the key
            if (!hasRoom(route)) {
                break;
            }
            n++;
            if (!take(input, route)) {
                break;
            }
        }
        return n;
    }

    /**
     * Takes the element at the head of {@code input}, where {@code ProcessRecord} is enabled, and
     * performs the step: a record is processed, a barrier that overtook it is received.
     *
     * @param recordRoute the route of the record at the head, if the caller computed it (the
     *     operator keeps the key, so it is the result's route), or null
     * @return whether it was a record
     */
    private boolean take(int input, int[] recordRoute) {
        Message element = inputs.get(input).poll();
        if (element instanceof Barrier b) {
            handleBarrier(input, b);
            return false;
        }
        if (element instanceof CancelBarrier cb) {
            handleCancelBarrier(input, cb);
            return false;
        }
        StepEffects fx = effects = new StepEffects();
        Record record = (Record) element;
        handler = handler.recordReceived(input, record, context);
        if (trackProcessed) {
            changelogs.processed(record.id(), processed.merge(record.id(), 1, Integer::sum));
        }
        Record result = operator.process(logicalInput[input], record);
        if (result == null || !result.id().equals(record.id()) || result.key() != record.key()) {
            throw new IllegalStateException("task " + id + ": operator " + operator.getClass().getSimpleName()
                    + " turned record " + record + " into " + result + "; it must keep the id and key");
        }
        for (int o : recordRoute != null ? recordRoute : router.route(result.key())) {
            if (!outputs.get(o).offerRecord(result)) {
                throw new IllegalStateException("task " + id + ": channel " + outputs.get(o).id() + " lost its room");
            }
        }
        if (sink != null) {
            settled = false; // the open transaction has a record
        }
        observer.on(new RunEvent.ProcessRecord(id, input, inputs.get(input).id(), record.id(), fx.persisted));
        return true;
    }

    /**
     * Action {@code ReceiveBarrier(t, e)}: takes the barrier at the head of {@code input} and hands
     * it to the handler state. A barrier of the checkpoint being handled marks its input arrived
     * (which may block the input, snapshot, forward and acknowledge); one of a newer checkpoint
     * subsumes the one being handled (abandoned, declined to the coordinator) and starts the newer
     * one; one of an older, finished or abandoned checkpoint is dropped as obsolete.
     *
     * @throws IllegalStateException naming the task and input if the step is not enabled, or task,
     *     input and checkpoint if that checkpoint's barrier has already arrived on this input
     */
    public void receiveBarrier(int input) {
        if (!canReceiveBarrier(input)) {
            throw notEnabled("ReceiveBarrier", input);
        }
        handleBarrier(input, (Barrier) inputs.get(input).poll());
    }

    private void handleBarrier(int input, Barrier barrier) {
        long c = barrier.checkpointId();
        StepEffects fx = effects = new StepEffects();
        if (c > handler.latestCheckpointId()) {
            firstBarrierTime = coordinator.now(); // the first barrier of a checkpoint new to this task
            if (!context.isAborted(c) && coordinator.declinesOnFirstBarrier(id, c)) {
                // DeclineCheckpoint: the task cannot take part in c. The coordinator aborts it (traced
                // as AbortCheckpoint(c) with declinedBy, before this step's event), and the handler
                // abandons it on this barrier as a checkpoint known to be aborted (the spec:
                // NotifyCheckpointAborted(t, c), then the barrier is obsolete). Flink: a task whose
                // checkpoint fails on the barrier declines it and sends a CancelCheckpointMarker.
                context.decline(c);
                context.markAborted(c);
            }
        }
        handler = handler.barrierReceived(input, barrier, context);
        // prioritized non-empty: a switch, the pending inputs' barriers pulled ahead
        observer.on(new RunEvent.ReceiveBarrier(id, input, inputs.get(input).id(), c, barrier.aligned(),
                fx.abandoned(), fx.ledger(), fx.overtaken, fx.prioritized()));
    }

    /**
     * The checkpoint whose {@code TimeoutAlignment} is enabled now, if any (alternating mode only):
     * the one being aligned (active), or, with none, the oldest one whose in-band barrier waits in
     * an input (passive); enabled when the handler state allows it (never for a savepoint, never
     * once unaligned) and the checkpoint has been pending for the mode's alignment timeout.
     */
    public OptionalLong alignmentTimeoutDue() {
        long timeout = mode.alignedTimeoutMillis();
        if (timeout < 0 || ended) {
            return OptionalLong.empty();
        }
        long c = handler.checkpointId();
        if (c == 0) {
            for (int i = 0; i < inputs.size(); i++) {
                Barrier b = endedInputs.get(i) ? null : inputs.get(i).firstInBandBarrier();
                if (b != null && b.checkpointId() > handler.latestCheckpointId() && (c == 0 || b.checkpointId() < c)) {
                    c = b.checkpointId();
                }
            }
        }
        if (c == 0 || !handler.canTimeoutAlignment(c, context) || !coordinator.alignmentTimedOut(c, timeout)) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(c);
    }

    /**
     * Action {@code TimeoutAlignment(t, c)}: the alignment of {@code checkpointId} timed out here
     * (alternating mode); the task switches it to unaligned: snapshot now, the queued in-band
     * barriers of it pulled ahead on the inputs still to deliver it (the records they pass are
     * persisted as those inputs' channel state), the barrier forwarded unaligned, overtaking the
     * outputs' queues (persisting them), every input unblocked; acknowledged at once if every
     * input has now delivered it.
     *
     * @throws IllegalStateException if it is not enabled ({@link #alignmentTimeoutDue()})
     */
    public void timeoutAlignment(long checkpointId) {
        OptionalLong due = alignmentTimeoutDue();
        if (due.isEmpty() || due.getAsLong() != checkpointId) {
            throw new IllegalStateException("task " + id + ": TimeoutAlignment(" + checkpointId + ") is not enabled"
                    + (due.isPresent() ? " (due: " + due.getAsLong() + ")" : "") + ", handler " + handler);
        }
        StepEffects fx = effects = new StepEffects();
        handler = handler.timeoutAlignment(checkpointId, context);
        observer.on(new RunEvent.TimeoutAlignment(id, checkpointId, fx.ledger(), fx.overtaken, fx.prioritized()));
    }

    /**
     * Whether {@code PrioritizeBarrier} is enabled on {@code input} (alternating mode): the task
     * handles a checkpoint unaligned (or awaits it unaligned after a passive timeout), {@code input}
     * has not delivered its barrier, and that barrier is queued in-band behind a record at the head.
     */
    public boolean canPrioritizeBarrier(int input) {
        if (input < 0 || input >= inputs.size() || ended) {
            return false;
        }
        long c = handler.prioritizable(input, context);
        if (c == 0) {
            return false;
        }
        Channel in = inputs.get(input);
        Barrier queued = in.firstInBandBarrier();
        // Only this thread takes from the channel: the record at the head stays ahead of the barrier.
        return queued != null && queued.checkpointId() == c && in.peek() instanceof Record;
    }

    /**
     * Action {@code PrioritizeBarrier(t, e)} (alternating mode): the barrier of the checkpoint the
     * task handles unaligned, queued on {@code input} behind records since the switch, jumps to
     * the head of the channel as an unaligned barrier; the records it jumps over are persisted as
     * the input's channel state and are taken after it. Flink: the unaligned alternating states'
     * {@code announcementReceived} ({@code convertToPriorityEvent}).
     *
     * @throws IllegalStateException if it is not enabled ({@link #canPrioritizeBarrier})
     */
    public void prioritizeBarrier(int input) {
        if (!canPrioritizeBarrier(input)) {
            throw notEnabled("PrioritizeBarrier", input);
        }
        long c = handler.prioritizable(input, context);
        StepEffects fx = effects = new StepEffects();
        handler = handler.prioritizeBarrier(input, context);
        observer.on(new RunEvent.PrioritizeBarrier(id, input, inputs.get(input).id(), c, fx.prioritized()));
    }

    /** Whether {@code ReceiveCancelBarrier} is enabled on {@code input}: a cancellation barrier is at its head and the input is not blocked. */
    public boolean canReceiveCancelBarrier(int input) {
        return input >= 0 && input < inputs.size()
                && inputs.get(input).peek() instanceof CancelBarrier && !handler.isBlocked(input);
    }

    /**
     * Whether {@code ReceiveEndOfPartition} is enabled on {@code input}: end of partition is at its
     * head, the input is not blocked, and, on the last open input, every checkpoint written so far
     * is acknowledged (the task's final state follows the acknowledgements of its earlier
     * checkpoints; {@link #acknowledgeWritten}).
     */
    public boolean canReceiveEndOfPartition(int input) {
        return input >= 0 && input < inputs.size()
                && inputs.get(input).peek() instanceof EndOfPartition && !handler.isBlocked(input)
                && !endsWhileWriting(input);
    }

    /** Whether end of partition on {@code input} would end the task while a write is pending. */
    private boolean endsWhileWriting(int input) {
        return !pendingWrites.isEmpty() && !endedInputs.get(input) && endedInputs.cardinality() == inputs.size() - 1;
    }

    /**
     * Action {@code ReceiveCancelBarrier(t, e)}: takes the cancellation barrier at the head of
     * {@code input}. Unless the task has gone past its checkpoint, the task abandons it (and the
     * older one it handles), unblocks every input and forwards the cancellation barrier once.
     */
    public void receiveCancelBarrier(int input) {
        if (!canReceiveCancelBarrier(input)) {
            throw notEnabled("ReceiveCancelBarrier", input);
        }
        handleCancelBarrier(input, (CancelBarrier) inputs.get(input).poll());
    }

    private void handleCancelBarrier(int input, CancelBarrier cb) {
        StepEffects fx = effects = new StepEffects();
        handler = handler.cancelBarrierReceived(input, cb.checkpointId(), context);
        observer.on(new RunEvent.ReceiveCancelBarrier(id, input, inputs.get(input).id(), cb.checkpointId(),
                fx.abandoned()));
    }

    /**
     * Action {@code NotifyCheckpointAborted(t, c)}: the coordinator says {@code checkpointId} is
     * aborted. An aligned task aligning it unblocks every input at once, an unaligned one stops
     * persisting for it; either forwards a cancellation barrier of it, and drops its later
     * barriers. A checkpoint the task has already gone past changes nothing.
     */
    public void notifyCheckpointAborted(long checkpointId) {
        if (ended) {
            throw new IllegalStateException("task " + id + ": NotifyCheckpointAborted(" + checkpointId
                    + ") after the task ended");
        }
        StepEffects fx = effects = new StepEffects();
        boolean remembered = !context.isAborted(checkpointId);
        handler = handler.checkpointAborted(checkpointId, context);
        remembered &= context.isAborted(checkpointId);
        coordinator.abortNotified(id, checkpointId);
        // What the notification did: abandoned the checkpoint (and the older one handled, if
        // any), remembered it for its first barrier (the engine's deferral, docs/vocabulary.md),
        // or nothing (the task had gone past it).
        observer.on(new RunEvent.NotifyCheckpointAborted(id, checkpointId, fx.abandoned(), remembered));
    }

    /**
     * Action {@code NotifyCheckpointComplete(t, c)}: the coordinator says checkpoint
     * {@code checkpointId} is complete; a transactional sink commits every transaction
     * pre-committed up to it. Offered only to transactional sinks, also after the task ended. A
     * failure before this step loses the notification; the restore re-commits instead.
     */
    public void notifyCheckpointComplete(long checkpointId) {
        if (sink == null) {
            throw new IllegalStateException("task " + id + ": NotifyCheckpointComplete(" + checkpointId
                    + "), but its operator is no transactional sink");
        }
        List<Long> committed = sink.notifyCheckpointComplete(checkpointId);
        settled = sink.settled();
        coordinator.completeNotified(id, checkpointId);
        observer.on(new RunEvent.NotifyCheckpointComplete(id, checkpointId, committed));
    }

    /** Whether the operator is a {@link TransactionalSink}: the task takes completion notifications. */
    public boolean isTransactional() {
        return sink != null;
    }

    /**
     * Whether a transactional sink has nothing left to commit (no pre-committed transaction, an
     * empty open one); always true for other operators. Safe to read from any thread.
     */
    public boolean transactionsSettled() {
        return settled;
    }

    /** The committed output of a transactional sink (record id to times); empty for other operators. Read while the task does not run. */
    public Map<RecordId, Integer> committedOutput() {
        return sink == null ? Map.of() : sink.committed();
    }

    /** The checkpoint ids whose transactions the last {@link #restore} re-committed (empty if none). */
    public List<Long> lastRecommitted() {
        return lastRecommitted;
    }

    /**
     * Action {@code ReceiveEndOfPartition(t, e)}: takes end of partition from {@code input}. The
     * input has ended and counts as arrived for the checkpoint being handled and every later one
     * (which may complete the alignment now). When it was the last open input, the task ends:
     * end of partition goes on every output, behind everything sent before, and the coordinator
     * gets the task's final state for every checkpoint it has not acknowledged.
     */
    public void receiveEndOfPartition(int input) {
        if (!canReceiveEndOfPartition(input)) {
            throw notEnabled("ReceiveEndOfPartition", input);
        }
        inputs.get(input).poll();
        endedInputs.set(input);
        StepEffects fx = effects = new StepEffects();
        handler = handler.endOfPartitionReceived(input, context);
        boolean last = endedInputs.cardinality() == inputs.size();
        if (last) {
            for (Channel out : outputs) {
                out.putEndOfPartition();
            }
            if (sink != null) {
                sink.endOfInput(); // pre-committed into the final state: the final checkpoint commits it
                settled = sink.settled();
            }
            ended = true;
            awaitWrites(); // this step's own, if its end of partition completed an alignment
            TaskSnapshot finalState = changelogs.snapshot(processed);
            changelogs.persist(Long.MAX_VALUE, finalState); // every later checkpoint holds the final state
            coordinator.taskEnded(Acknowledgement.ofOperator(id, 1, finalState, Map.of(), Map.of(), 0, 0));
        }
        observer.on(new RunEvent.ReceiveEndOfPartition(id, input, inputs.get(input).id(), last,
                fx.snapshot == null ? 0 : pendingOrLast(), fx.ledger()));
    }

    private long pendingOrLast() {
        return handler.latestCheckpointId();
    }

    private IllegalStateException notEnabled(String action, int input) {
        if (input < 0 || input >= inputs.size()) {
            return new IllegalStateException("task " + id + ": " + action + " on input " + input
                    + ", but it has inputs 0.." + (inputs.size() - 1));
        }
        return new IllegalStateException("task " + id + ": " + action + "(" + input + ") is not enabled: head "
                + inputs.get(input).peek() + ", handler " + handler);
    }

    /**
     * Recovery: a fresh operator with {@code snapshot}'s state and ledger (initial state when
     * {@code snapshot} is null), the handler back in its initial state, no checkpoint in progress.
     */
    public void restore(TaskSnapshot snapshot) {
        reset(snapshot, true);
    }

    /**
     * The constructor does not initialize a transactional sink's transactions (that would abort the
     * pending transactions of a checkpoint about to be resumed from): a runtime restores every task
     * before it runs, from its store's checkpoint or the initial state.
     */
    private void reset(TaskSnapshot snapshot, boolean initializeState) {
        operator = factory.get();
        processed = new RecordLedger();
        if (snapshot != null) {
            operator.restoreState(snapshot.operatorState());
            processed.putAll(snapshot.processed());
        }
        if (changelogs != null) {
            changelogs.abandon(); // its materialisation is of the chains this restore replaces
        }
        changelogs = new TaskChangelogs(operator, snapshot, materialiser, uploads, id);
        sink = operator instanceof TransactionalSink t ? t : null;
        lastRecommitted = List.of();
        if (sink != null && initializeState) {
            // re-commit the restored checkpoint's transactions (idempotent), abort the rest
            lastRecommitted = List.copyOf(sink.initializeState(id, snapshot != null));
            settled = sink.settled();
        }
        handler = mode.initialState();
        endedInputs.clear();
        abortedAhead.clear();
        ended = false;
        dropWrites();
        clearPending();
    }

    private void clearPending() {
        pendingSnapshot = null;
        pendingSnapshotId = 0;
        inputChannelState.clear();
        outputChannelState.clear();
    }

    /** A checkpoint's write handed to the writer, and the acknowledgement that follows it. */
    private static final class PendingWrite {
        final Acknowledgement ack;
        /** Counted down by the writer's thread when the write is done (or skipped, {@link #dropped}). */
        final java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
        /** Set by a restore before the write ran: it writes nothing (the store's restore swept its files). */
        volatile boolean dropped;
        /** What the write threw, if it failed: the checkpoint is declined instead of acknowledged. */
        volatile Throwable failure;
        /** Whether the write ran on the task's thread, within the step that handed it over (the simulation's). */
        volatile boolean inline;

        PendingWrite(Acknowledgement ack) {
            this.ack = ack;
        }
    }

    /**
     * Sends, in checkpoint order, the acknowledgement of each checkpoint whose write is done, up to
     * the first one still being written; a write that failed declines its checkpoint instead (as
     * Flink's {@code AsyncCheckpointRunnable} reports an asynchronous failure as a declined
     * checkpoint). On the task's thread: the threaded runtime calls it before each step, and when
     * the writer wakes an idle task ({@link #onWritten}); the simulation's writes are done within
     * the step that snapshots, which sends the acknowledgement at once. An acknowledgement of a
     * checkpoint aborted meanwhile is ignored by the coordinator ({@code AckResult.IGNORED_ABORTED}).
     *
     * @return how many checkpoints were acknowledged or declined
     */
    public int acknowledgeWritten() {
        return sendWritten(true);
    }

    /** {@link #acknowledgeWritten}; {@code betweenSteps} false: within the step that is about to record its event. */
    private int sendWritten(boolean betweenSteps) {
        int n = 0;
        for (PendingWrite w = pendingWrites.peek(); w != null && w.done.getCount() == 0; w = pendingWrites.peek()) {
            pendingWrites.poll();
            n++;
            if (w.failure != null) {
                coordinator.declineCheckpoint(id, w.ack.checkpointId());
            } else if (betweenSteps) {
                coordinator.acknowledgeBetweenSteps(w.ack);
            } else {
                coordinator.acknowledge(w.ack);
            }
        }
        return n;
    }

    /** Whether the oldest write handed over is done, its acknowledgement due. Task thread. */
    private boolean writeDone() {
        PendingWrite w = pendingWrites.peek();
        return w != null && w.done.getCount() == 0;
    }

    /** Checkpoints written or being written whose acknowledgement has not gone out. Task thread. */
    public int pendingWrites() {
        return pendingWrites.size();
    }

    /**
     * {@code wake} is called on the writer's thread after each write of this task: the runtime
     * wakes the task's thread, which then acknowledges ({@link #acknowledgeWritten}). Set while the
     * task does not run.
     */
    public void onWritten(Runnable wake) {
        this.written = Objects.requireNonNull(wake, "wake");
    }

    /** Hands the write of {@code ack}'s snapshot to the writer; its acknowledgement follows when it is done. */
    private void write(Acknowledgement ack) {
        PendingWrite w = new PendingWrite(ack);
        pendingWrites.add(w);
        TaskChangelogs target = changelogs;
        Thread task = Thread.currentThread();
        writer.execute(() -> {
            w.inline = Thread.currentThread() == task;
            try {
                if (!w.dropped) {
                    target.persist(ack.checkpointId(), ack.snapshot());
                }
            } catch (Throwable t) {
                w.failure = t;
            } finally {
                w.done.countDown(); // after the failure, before the wake-up: both seen by the task's thread
                written.run();
            }
        });
        if (w.inline) {
            sendWritten(false); // written on this thread (the simulation's): acknowledged within this step
        }
    }

    /**
     * Waits until every write handed over is done and acknowledges them, before the task's final
     * state: only a write this step handed over can be pending here (end of partition on the last
     * input is enabled only without one), the step's end of partition having completed the
     * alignment of a checkpoint. The writer waits for nothing of the task's (the store's lock at
     * most), so this wait ends.
     */
    private void awaitWrites() {
        boolean interrupted = false;
        for (PendingWrite w : pendingWrites) {
            while (true) {
                try {
                    w.done.await();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        sendWritten(false); // within this step, before its event
    }

    /** A restore: the writes not yet done write nothing, and no acknowledgement of them goes out. */
    private void dropWrites() {
        for (PendingWrite w : pendingWrites) {
            w.dropped = true;
        }
        pendingWrites.clear();
    }

    @Override
    public void enabledSteps(List<Step> out) {
        if (sink != null) {
            OptionalLong done = coordinator.nextCompleteNotificationFor(id);
            if (done.isPresent()) {
                out.add(new Step(Action.NOTIFY_CHECKPOINT_COMPLETE, id, -1, done.getAsLong()));
            }
        }
        if (ended) {
            return;
        }
        OptionalLong timeout = alignmentTimeoutDue();
        if (timeout.isPresent()) {
            out.add(new Step(Action.TIMEOUT_ALIGNMENT, id, -1, timeout.getAsLong()));
        }
        if (mode.alignedTimeoutMillis() >= 0) {
            for (int i = 0; i < inputs.size(); i++) {
                if (canPrioritizeBarrier(i)) {
                    out.add(new Step(Action.PRIORITIZE_BARRIER, id, i, handler.prioritizable(i, context)));
                }
            }
        }
        OptionalLong news = coordinator.nextAbortNotificationFor(id);
        if (news.isPresent()) {
            out.add(new Step(Action.NOTIFY_CHECKPOINT_ABORTED, id, -1, news.getAsLong()));
        }
        for (int i = 0; i < inputs.size(); i++) {
            Message head = inputs.get(i).peek();
            if (head == null || handler.isBlocked(i)) {
                continue;
            }
            if (head instanceof Barrier b) {
                out.add(new Step(Action.RECEIVE_BARRIER, id, i, b.checkpointId()));
            } else if (head instanceof CancelBarrier cb) {
                out.add(new Step(Action.RECEIVE_CANCEL_BARRIER, id, i, cb.checkpointId()));
            } else if (head instanceof EndOfPartition) {
                if (endsWhileWriting(i)) {
                    continue; // enabled once the writes are acknowledged; the writer wakes the task
                }
                out.add(new Step(Action.RECEIVE_END_OF_PARTITION, id, i, 0));
            } else if (routeHasRoom(((Record) head).key())) {
                out.add(new Step(Action.PROCESS_RECORD, id, i, 0));
            }
        }
    }

    @Override
    public boolean flushOutputs() {
        boolean any = false;
        for (int i = 0; i < outputs.size(); i++) {
            any |= outputs.get(i).flush();
        }
        return any;
    }

    @Override
    public void perform(Step step) {
        switch (step.action()) {
            case PROCESS_RECORD -> processRecord(step.input());
            case RECEIVE_BARRIER -> receiveBarrier(step.input());
            case RECEIVE_CANCEL_BARRIER -> receiveCancelBarrier(step.input());
            case RECEIVE_END_OF_PARTITION -> receiveEndOfPartition(step.input());
            case NOTIFY_CHECKPOINT_ABORTED -> notifyCheckpointAborted(step.checkpointId());
            case TIMEOUT_ALIGNMENT -> timeoutAlignment(step.checkpointId());
            case PRIORITIZE_BARRIER -> prioritizeBarrier(step.input());
            case NOTIFY_CHECKPOINT_COMPLETE -> notifyCheckpointComplete(step.checkpointId());
            default -> throw new IllegalStateException("task " + id + ": an operator has no step " + step);
        }
    }

    @Override
    public int performAgain(Step step, int max) {
        return step.action() == Action.PROCESS_RECORD ? processRecords(step.input(), max) : 0;
    }

    @Override
    public String toString() {
        return "OperatorTask[" + id + ", " + handler + "]";
    }

    /** The task's side of the barrier handler states' requests. */
    private final class Context implements BarrierHandlerContext {

        @Override
        public String taskId() {
            return id;
        }

        @Override
        public int inputCount() {
            return inputs.size();
        }

        @Override
        public boolean inputEnded(int input) {
            return endedInputs.get(input);
        }

        @Override
        public void abandon(long checkpointId) {
            clearPending();
            effects.abandoned(checkpointId);
            CancelBarrier cb = new CancelBarrier(checkpointId);
            for (Channel out : outputs) {
                out.putCancelBarrier(cb, mode.overtaking());
            }
        }

        @Override
        public void markAborted(long checkpointId) {
            abortedAhead.add(checkpointId);
        }

        @Override
        public boolean isAborted(long checkpointId) {
            return abortedAhead.contains(checkpointId);
        }

        @Override
        public void decline(long checkpointId) {
            coordinator.declineCheckpoint(id, checkpointId);
        }

        @Override
        public void snapshot(long checkpointId) {
            if (sink != null) {
                sink.preCommit(checkpointId); // the pre-committed transaction goes into this snapshot
                settled = sink.settled();
            }
            pendingSnapshot = changelogs.snapshot(processed);
            pendingSnapshotId = checkpointId;
            effects.snapshot = pendingSnapshot;
        }

        @Override
        public void forwardBarrier(long checkpointId) {
            Barrier b = new Barrier(checkpointId);
            for (Channel out : outputs) {
                out.putBarrier(b);
            }
        }

        @Override
        public void forwardBarrierOvertaking(long checkpointId) {
            overtake(new Barrier(checkpointId)); // unaligned mode: overtaking by its mode, the flags unread
        }

        @Override
        public void forward(Barrier b) {
            if (b.aligned()) {
                for (Channel out : outputs) {
                    out.putBarrier(b);
                }
            } else {
                overtake(b);
            }
        }

        private void overtake(Barrier b) {
            for (Channel out : outputs) {
                outputChannelState.put(out.id(), out.putBarrierOvertaking(b));
            }
            effects.overtaken = Map.copyOf(outputChannelState);
        }

        @Override
        public Barrier queuedBarrier(int input) {
            return inputs.get(input).firstInBandBarrier();
        }

        @Override
        public boolean prioritizeBarrier(int input, long checkpointId, boolean persist) {
            List<Record> ahead = inputs.get(input).prioritizeBarrier(checkpointId);
            if (ahead == null) {
                return false;
            }
            String channel = inputs.get(input).id();
            List<Record> persisted = persist ? List.copyOf(ahead) : List.of();
            inputChannelState.computeIfAbsent(channel, k -> new ArrayList<>()).addAll(persisted);
            effects.prioritized(channel, persisted);
            return true;
        }

        @Override
        public void switched(long checkpointId, boolean timeout) {
            coordinator.alignmentSwitched(id, checkpointId);
        }

        @Override
        public void discard(long checkpointId) {
            clearPending();
        }

        @Override
        public void persistInFlight(int input, Record record) {
            inputChannelState.computeIfAbsent(inputs.get(input).id(), k -> new ArrayList<>()).add(record);
            effects.persisted = true;
        }

        @Override
        public void acknowledge(long checkpointId) {
            if (pendingSnapshot == null || pendingSnapshotId != checkpointId) {
                throw new IllegalStateException("task " + id + ": acknowledging checkpoint " + checkpointId
                        + " without a snapshot for it (snapshot taken for " + pendingSnapshotId + ")");
            }
            // What the acknowledgement carries is frozen here (the snapshot is immutable, the channel
            // state copied); the changes since the previous snapshot are then written by the writer
            // and the acknowledgement goes out when that is done, so that the coordinator's store
            // only takes them over (FLIP-158's changelog writer: the task uploads its changes, the
            // coordinator registers their handles). Flink's asynchronous phase: the synchronous part
            // only freezes what to write (SubtaskCheckpointCoordinatorImpl#checkpointState), the
            // upload runs on another thread (AsyncCheckpointRunnable), which acknowledges when done.
            long now = coordinator.now();
            long startDelay = firstBarrierTime - coordinator.triggerTime(checkpointId);
            Acknowledgement ack = Acknowledgement.ofOperator(id, checkpointId, pendingSnapshot,
                    inputChannelState, outputChannelState, startDelay, now - firstBarrierTime);
            clearPending();
            write(ack);
        }
    }
}
