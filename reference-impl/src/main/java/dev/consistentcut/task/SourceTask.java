package dev.consistentcut.task;

import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.channel.Channel;
import dev.consistentcut.checkpoint.Acknowledgement;
import dev.consistentcut.graph.PhysicalGraph;
import dev.consistentcut.graph.PhysicalGraph.ChannelSpec;
import dev.consistentcut.message.Barrier;
import dev.consistentcut.message.Record;
import dev.consistentcut.source.SourceLog;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;

/**
 * A source task instance: reads its {@link SourceLog} from {@link #offset()} on and injects
 * barriers. Steps: {@link #emitRecord()} ({@code EmitRecord}), {@link #injectBarrier(long)}
 * ({@code InjectBarrier}) and, in jobs that run to the end of their input,
 * {@link #sendEndOfPartition()} ({@code SendEndOfPartition}). Threading: see {@link Task}; in addition {@link #offset()} and
 * {@link #exhausted()} may be read by any thread.
 */
public final class SourceTask implements Task {

    private final String id;
    private final SourceLog log;
    private final PhysicalGraph graph;
    private final List<Channel> outputs;
    /** {@code graph.route(id, key)} without a lookup per record. */
    private final PhysicalGraph.Router router;
    private final BarrierMode mode;
    private final CoordinatorGateway coordinator;
    private final RunObserver observer;

    /**
     * The spec's {@code offset[s]}: the next offset to read. Written only by the task's thread;
     * volatile so that a threaded runtime's coordinator thread can read {@link #offset()} and
     * {@link #exhausted()} (to stop triggering and to detect termination).
     */
    private volatile long offset;

    /** Whether this source sends end of partition once its log is read (FLIP-147; CheckpointSettings.endOfInput). */
    private final boolean endOfInput;
    /** The spec's {@code s \in endedSources}: end of partition sent; no more steps. Volatile as {@link #offset}. */
    private volatile boolean ended;

    /**
     * @param channels every channel of the job by id; this task uses its outputs in
     *     {@link PhysicalGraph#outputs} order
     */
    public SourceTask(String id, PhysicalGraph graph, Map<String, Channel> channels, BarrierMode mode,
                      CoordinatorGateway coordinator, RunObserver observer) {
        this(id, graph, channels, mode, coordinator, observer, false);
    }

    /**
     * @param endOfInput whether the source sends end of partition once its whole log is read
     */
    public SourceTask(String id, PhysicalGraph graph, Map<String, Channel> channels, BarrierMode mode,
                      CoordinatorGateway coordinator, RunObserver observer, boolean endOfInput) {
        this.endOfInput = endOfInput;
        this.id = Objects.requireNonNull(id, "id");
        this.graph = Objects.requireNonNull(graph, "graph");
        this.log = graph.log(id);
        this.outputs = graph.outputs(id).stream().map(c -> channel(channels, c)).toList();
        this.router = graph.router(id);
        this.mode = Objects.requireNonNull(mode, "mode");
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
        this.observer = Objects.requireNonNull(observer, "observer");
    }

    static Channel channel(Map<String, Channel> channels, ChannelSpec spec) {
        Channel c = channels.get(spec.id());
        if (c == null) {
            throw new IllegalArgumentException("no channel object for channel " + spec.id());
        }
        return c;
    }

    @Override
    public String id() {
        return id;
    }

    /** The next offset to read: every record before it has been emitted. */
    public long offset() {
        return offset;
    }

    /** Whether every record of the log has been emitted. */
    public boolean exhausted() {
        return offset >= log.length();
    }

    /** Whether the source has sent end of partition (and has no more steps). */
    public boolean ended() {
        return ended;
    }

    /** Whether {@code SendEndOfPartition} is enabled: the job runs to its end, the log is read, not sent yet. */
    public boolean canSendEndOfPartition() {
        return endOfInput && !ended && exhausted();
    }

    /**
     * Action {@code SendEndOfPartition(s)}: end of partition on every output (behind everything
     * sent), once. The source has ended: it injects no more barriers, and the coordinator
     * records its final offset for every checkpoint it has not acknowledged (FLIP-147; end of
     * partition stands for those barriers downstream).
     */
    public void sendEndOfPartition() {
        if (!canSendEndOfPartition()) {
            throw new IllegalStateException("task " + id + ": SendEndOfPartition is not enabled ("
                    + (!endOfInput ? "the job does not run to the end of its input"
                    : ended ? "already sent" : "offset " + offset + " of " + log.length() + " read") + ")");
        }
        for (Channel out : outputs) {
            out.putEndOfPartition();
        }
        ended = true;
        coordinator.taskEnded(Acknowledgement.ofSource(id, 1, offset, Map.of(), 0));
        observer.on(new RunEvent.SendEndOfPartition(id, offset));
    }

    /** Whether {@code EmitRecord} is enabled: a record is left and every channel on its route has room. */
    public boolean canEmitRecord() {
        return routeWithRoom() != null;
    }

    /** The route of the record at {@link #offset()} if {@code EmitRecord} is enabled; null otherwise. */
    private int[] routeWithRoom() {
        if (exhausted()) {
            return null;
        }
        int[] route = router.route(log.entryAt(offset).key());
        for (int o : route) {
            if (!outputs.get(o).hasRoom()) {
                return null;
            }
        }
        return route;
    }

    /** Action {@code EmitRecord}: sends the record at {@link #offset()} on its route, then advances the offset. */
    public void emitRecord() {
        int[] route = routeWithRoom();
        if (route == null) {
            throw new IllegalStateException("task " + id + ": EmitRecord is not enabled at offset " + offset
                    + (exhausted() ? " (log exhausted)" : " (a channel on the route is full)"));
        }
        emit(route);
    }

    /**
     * {@code EmitRecord} again and again, at most {@code max} times, while it stays enabled and
     * no barrier is due: a due barrier is injected before the next record, as
     * the threaded runtime's choice would (it takes {@code InjectBarrier} first), and a
     * throttled log's wait gives up for it ({@code benchmarks}' source log).
     *
     * @return how many {@code EmitRecord} steps were performed
     */
    public int emitRecords(int max) {
        int n = 0;
        while (n < max && !ended && barrierToInject().isEmpty()) {
            int[] route = routeWithRoom();
            if (route == null) {
                break;
            }
            emit(route);
            n++;
        }
        return n;
    }

    /** {@code EmitRecord}, known to be enabled, on {@code route}: the record's, computed once per record. */
    private void emit(int[] route) {
        Record r = log.read(id, offset);
        for (int o : route) {
            if (!outputs.get(o).offerRecord(r)) {
                // Each channel has one sender, this task, so the room checked above cannot vanish.
                throw new IllegalStateException("task " + id + ": channel " + outputs.get(o).id() + " lost its room");
            }
        }
        offset++;
        observer.on(new RunEvent.EmitRecord(id, r.id()));
    }

    /** The checkpoint whose barrier {@code InjectBarrier} would inject now, if any. */
    public OptionalLong barrierToInject() {
        return coordinator.nextBarrierFor(id);
    }

    /**
     * Action {@code InjectBarrier(s, c)}: records {@link #offset()} as this source's offset in
     * {@code c}, sends barrier {@code c} on every output (unaligned: overtaking the queued records,
     * which become those channels' state) and acknowledges {@code c}.
     */
    public void injectBarrier(long checkpointId) {
        if (ended) {
            throw new IllegalStateException("task " + id + ": InjectBarrier(" + checkpointId + ") after end of partition");
        }
        OptionalLong next = barrierToInject();
        if (next.isEmpty() || next.getAsLong() != checkpointId) {
            throw new IllegalStateException("task " + id + ": InjectBarrier(" + checkpointId + ") is not enabled; next barrier: "
                    + (next.isPresent() ? next.getAsLong() : "none"));
        }
        inject(checkpointId);
    }

    /** {@code InjectBarrier} of a checkpoint that was due when read (it may have been aborted since). */
    private void inject(long checkpointId) {
        long startDelay = coordinator.now() - coordinator.triggerTime(checkpointId);
        // Every checkpoint starts aligned; only alternating mode reads the flags (unaligned mode's
        // barriers overtake by the mode).
        Barrier barrier = new Barrier(checkpointId, true, coordinator.isSavepoint(checkpointId));
        Map<String, List<Record>> overtaken = new LinkedHashMap<>();
        for (Channel out : outputs) {
            if (mode.overtaking()) {
                overtaken.put(out.id(), out.putBarrierOvertaking(barrier));
            } else {
                out.putBarrier(barrier);
            }
        }
        coordinator.acknowledge(Acknowledgement.ofSource(id, checkpointId, offset, overtaken, startDelay));
        observer.on(new RunEvent.InjectBarrier(id, checkpointId, offset, overtaken, barrier.aligned()));
    }

    /** Recovery: the next record read is the one at {@code newOffset}. */
    public void rewind(long newOffset) {
        if (newOffset < 0 || newOffset > log.length()) {
            throw new IllegalArgumentException("task " + id + ": cannot rewind to offset " + newOffset
                    + ", the log has offsets 0.." + (log.length() - 1));
        }
        offset = newOffset;
        ended = false;
    }

    @Override
    public void enabledSteps(List<Step> out) {
        if (ended) {
            return;
        }
        OptionalLong barrier = barrierToInject();
        if (barrier.isPresent()) {
            out.add(new Step(Action.INJECT_BARRIER, id, -1, barrier.getAsLong()));
        }
        if (canEmitRecord()) {
            out.add(new Step(Action.EMIT_RECORD, id, -1, 0));
        }
        if (canSendEndOfPartition()) {
            out.add(new Step(Action.SEND_END_OF_PARTITION, id, -1, 0));
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
            case EMIT_RECORD -> emitRecord();
            case INJECT_BARRIER -> {
                // In the threaded runtime the checkpoint chosen may have been aborted meanwhile
                // (the coordinator thread does not wait for task steps): inject the barrier due
                // now, if any. The simulation never sees a change: nothing moves in between.
                // A barrier of a checkpoint aborted after this read still goes out (the trigger and
                // the abort travel apart, as in Flink); the coordinator ignores its acknowledgement.
                OptionalLong due = barrierToInject();
                if (due.isPresent() && !ended) {
                    inject(due.getAsLong());
                }
            }
            case SEND_END_OF_PARTITION -> sendEndOfPartition();
            default -> throw new IllegalStateException("task " + id + ": a source has no step " + step);
        }
    }

    @Override
    public int performAgain(Step step, int max) {
        return step.action() == Action.EMIT_RECORD ? emitRecords(max) : 0;
    }

    @Override
    public String toString() {
        return "SourceTask[" + id + ", offset " + offset + "/" + log.length() + "]";
    }
}
