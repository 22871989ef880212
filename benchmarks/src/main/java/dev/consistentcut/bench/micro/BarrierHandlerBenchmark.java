package dev.consistentcut.bench.micro;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.channel.Channel;
import dev.consistentcut.checkpoint.CheckpointCoordinator;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.checkpoint.InMemoryCheckpointStore;
import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.Partitioning;
import dev.consistentcut.graph.PhysicalGraph;
import dev.consistentcut.message.Barrier;
import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import dev.consistentcut.operator.KeyedCount;
import dev.consistentcut.source.InMemorySourceLog;
import dev.consistentcut.task.OperatorTask;
import dev.consistentcut.task.RunObserver;
import dev.consistentcut.testsupport.RecordingGateway;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Per-record cost of {@code ProcessRecord} in a two-input keyed-count task, in each barrier
 * handler situation a record meets:
 * <ul>
 *   <li>{@code none}: no checkpoint in progress (the handler passes records through);</li>
 *   <li>{@code aligned}: an aligned checkpoint in progress, input 0's barrier in, input 1 still
 *       processed while input 0 is blocked;</li>
 *   <li>{@code unaligned}: an unaligned checkpoint in progress, each record from input 1 (whose
 *       barrier is still to come) processed and persisted as channel state.</li>
 * </ul>
 * Every {@link #RECORDS_PER_CHECKPOINT} records the checkpoint completes (input 1's barrier:
 * snapshot, acknowledgement, completion by the coordinator, through the engine's recording gateway
 * as the stress tests drive tasks) and the next one is triggered and starts, so the cost of
 * snapshots and of handing the persisted records to the acknowledgement is spread over the
 * records, as in a running job. The coordinator knows only the benchmarked task, whose
 * acknowledgement completes each checkpoint. The task keeps no processed-records ledger (the
 * benchmark setting of the macro run too). Single-threaded: the channel is filled and drained by
 * the benchmark thread.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class BarrierHandlerBenchmark {

    static final int RECORDS_PER_CHECKPOINT = 10_000;
    private static final int KEYS = 1_000;

    @Param({"none", "aligned", "unaligned"})
    public String handler;

    private OperatorTask task;
    private Channel input0;
    private Channel input1;
    private final Record[] records = new Record[KEYS];
    private int next;
    private long checkpoint;
    private int sinceBarrier;
    private CheckpointCoordinator coordinator;
    /** The last completed checkpoint, kept so that building it cannot be optimized away (and no more of them). */
    CompletedCheckpoint lastCompleted;

    @Setup(Level.Trial)
    public void setUp() {
        JobGraph job = JobGraph.builder()
                .source("a", InMemorySourceLog.ofKeys(0))
                .source("b", InMemorySourceLog.ofKeys(0))
                .operator("count", 1, KeyedCount::new)
                .edge("a", "count", Partitioning.FORWARD, 1)
                .edge("b", "count", Partitioning.FORWARD, 1)
                .build();
        PhysicalGraph graph = PhysicalGraph.of(job);
        Map<String, Channel> channels = new LinkedHashMap<>();
        for (PhysicalGraph.ChannelSpec c : graph.channels()) {
            channels.put(c.id(), new Channel(c.id(), 1));
        }
        input0 = channels.get(graph.inputs("count#0").get(0).id());
        input1 = channels.get(graph.inputs("count#0").get(1).id());
        BarrierMode mode = handler.equals("unaligned") ? BarrierHandlers.unaligned() : BarrierHandlers.aligned();
        Set<String> tasks = Set.of("count#0");
        coordinator = mode.overtaking()
                ? CheckpointCoordinator.forUnaligned(tasks, channels.keySet(), new InMemoryCheckpointStore(1), () -> 0L)
                : CheckpointCoordinator.forAligned(tasks, channels.keySet(), 1, new InMemoryCheckpointStore(1), () -> 0L);
        RecordingGateway gateway = new RecordingGateway(coordinator, timeoutMillis -> false, c -> lastCompleted = c);
        task = new OperatorTask("count#0", graph, channels, mode, gateway, RunObserver.NONE, false);
        for (int k = 0; k < KEYS; k++) {
            records[k] = new Record(new RecordId("b#0", k), k, 1);
        }
        if (!handler.equals("none")) {
            startCheckpoint();
        }
    }

    /** The next checkpoint is triggered and input 0's barrier of it arrives: the task is now in the middle of it. */
    private void startCheckpoint() {
        checkpoint = coordinator.triggerCheckpoint().getAsLong();
        input0.putBarrier(new Barrier(checkpoint));
        task.receiveBarrier(0);
    }

    @Benchmark
    public OperatorTask processRecord() {
        input1.offerRecord(records[next]);
        next = next + 1 == KEYS ? 0 : next + 1;
        task.processRecord(1);
        if (checkpoint > 0 && ++sinceBarrier == RECORDS_PER_CHECKPOINT) {
            sinceBarrier = 0;
            input1.putBarrier(new Barrier(checkpoint));
            task.receiveBarrier(1);
            startCheckpoint();
        }
        return task;
    }
}
