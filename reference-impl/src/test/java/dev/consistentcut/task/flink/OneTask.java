package dev.consistentcut.task.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.channel.Channel;
import dev.consistentcut.checkpoint.Acknowledgement;
import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.Partitioning;
import dev.consistentcut.graph.PhysicalGraph;
import dev.consistentcut.message.Barrier;
import dev.consistentcut.message.CancelBarrier;
import dev.consistentcut.message.EndOfPartition;
import dev.consistentcut.message.Message;
import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import dev.consistentcut.operator.MapOperator;
import dev.consistentcut.source.InMemorySourceLog;
import dev.consistentcut.task.FakeGateway;
import dev.consistentcut.task.OperatorTask;
import dev.consistentcut.task.RunObserver;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.IntStream;

/**
 * One {@link OperatorTask} with {@code n} inputs and one output, driven by a script in the style of
 * Flink's barrier-handler tests: each token puts one element on one input and makes the task take
 * it at once, so the elements are taken in script order. Taking from a blocked input fails the
 * test (the task refuses the step), which is how a script checks that an input stays blocked.
 *
 * <p>Tokens: {@code rI} a record on input I; {@code bC@I} barrier C on input I; {@code xC@I} a
 * cancellation barrier of C on input I; {@code eI} end of partition on input I; {@code nC} the
 * coordinator's notification that C is aborted.
 *
 * <p>Alternating mode adds: {@code uC@I} an unaligned barrier C (an upstream task timed out);
 * {@code sC@I} a savepoint barrier C (forced aligned); {@code tC} the alignment timer of C fires
 * and the task times out ({@code TimeoutAlignment}, which must be enabled); {@code ~C} the timer of
 * C fires but the task takes no step; {@code pI} the barrier queued on input I behind records is
 * prioritized ({@code PrioritizeBarrier}, which must be enabled). A token with a leading {@code +} ({@code +rI}, {@code +bC@I},
 * {@code +sC@I}) only queues the element (the task does not take it: it waits in the input, as
 * in Flink's tests a buffer the gate has not polled yet); {@code TI} takes the head of input I
 * (a record or a barrier).
 *
 * <p>What the task did is read off its output channel and the fake coordinator: the checkpoints
 * it snapshot (barriers it forwarded), acknowledged, cancelled (cancellation barriers it
 * forwarded) and declined, and whether it ended.
 */
final class OneTask {

    final OperatorTask task;
    final FakeGateway coordinator = new FakeGateway();
    private final List<Channel> inputs = new ArrayList<>();
    private final Channel output;
    private final long[] offsets;
    private final List<Message> forwarded = new ArrayList<>();

    OneTask(int n, BarrierMode mode) {
        JobGraph.Builder job = JobGraph.builder();
        for (int i = 0; i < n; i++) {
            job.source("s" + i, InMemorySourceLog.ofKeys(1));
        }
        job.operator("op", 1, () -> new MapOperator(v -> v)).operator("sink", 1,
                dev.consistentcut.operator.RecordingSink::new);
        for (int i = 0; i < n; i++) {
            job.edge("s" + i, "op", Partitioning.FORWARD, 1000);
        }
        job.edge("op", "sink", Partitioning.FORWARD, 1000);
        PhysicalGraph graph = PhysicalGraph.of(job.build());
        Map<String, Channel> channels = new LinkedHashMap<>();
        graph.channels().forEach(c -> channels.put(c.id(), new Channel(c.id(), c.capacity())));
        task = new OperatorTask("op#0", graph, channels, mode, coordinator, RunObserver.NONE, true);
        graph.inputs("op#0").forEach(c -> inputs.add(channels.get(c.id())));
        output = channels.get(graph.outputs("op#0").get(0).id());
        offsets = new long[n];
    }

    /** Runs the tokens of {@code script} (blank-separated) in order; see the class comment. */
    OneTask run(String script) {
        for (String t : script.trim().split("\\s+")) {
            step(t);
        }
        return this;
    }

    private void step(String t) {
        if (t.startsWith("+")) {
            queue(t.substring(1));
            return;
        }
        switch (t.charAt(0)) {
            case 'u', 's' -> {
                int i = queue(t);
                task.receiveBarrier(i);
            }
            case 't' -> {
                long c = Long.parseLong(t.substring(1));
                coordinator.timedOut.add(c);
                task.timeoutAlignment(c);
            }
            case '~' -> coordinator.timedOut.add(Long.parseLong(t.substring(1)));
            case 'p' -> task.prioritizeBarrier(Integer.parseInt(t.substring(1)));
            case 'T' -> {
                int i = Integer.parseInt(t.substring(1));
                if (inputs.get(i).peek() instanceof Record) {
                    task.processRecord(i);
                } else {
                    task.receiveBarrier(i);
                }
            }
            case 'r' -> {
                int i = Integer.parseInt(t.substring(1));
                inputs.get(i).offerRecord(new Record(new RecordId("s" + i + "#0", offsets[i]++), 1, 1));
                task.processRecord(i);
            }
            case 'b' -> {
                int at = t.indexOf('@');
                int i = Integer.parseInt(t.substring(at + 1));
                inputs.get(i).putBarrier(new Barrier(Long.parseLong(t.substring(1, at))));
                task.receiveBarrier(i);
            }
            case 'x' -> {
                int at = t.indexOf('@');
                int i = Integer.parseInt(t.substring(at + 1));
                inputs.get(i).putCancelBarrier(new CancelBarrier(Long.parseLong(t.substring(1, at))), false);
                task.receiveCancelBarrier(i);
            }
            case 'e' -> {
                int i = Integer.parseInt(t.substring(1));
                inputs.get(i).putEndOfPartition();
                task.receiveEndOfPartition(i);
            }
            case 'n' -> task.notifyCheckpointAborted(Long.parseLong(t.substring(1)));
            default -> throw new IllegalArgumentException("unknown token '" + t + "'");
        }
        drainOutput();
    }

    private void drainOutput() {
        for (Message e; (e = output.poll()) != null; ) {
            forwarded.add(e);
        }
    }

    /** Puts the element of token {@code t} ({@code rI}, {@code bC@I}, {@code uC@I}, {@code sC@I}) on its input; returns the input. */
    private int queue(String t) {
        if (t.charAt(0) == 'r') {
            int i = Integer.parseInt(t.substring(1));
            inputs.get(i).offerRecord(new Record(new RecordId("s" + i + "#0", offsets[i]++), 1, 1));
            return i;
        }
        int at = t.indexOf('@');
        int i = Integer.parseInt(t.substring(at + 1));
        long c = Long.parseLong(t.substring(1, at));
        Barrier b = switch (t.charAt(0)) {
            case 'b' -> new Barrier(c);
            case 'u' -> new Barrier(c, false, false);
            case 's' -> new Barrier(c, true, true);
            default -> throw new IllegalArgumentException("unknown token '" + t + "'");
        };
        if (b.aligned()) {
            inputs.get(i).putBarrier(b);
        } else {
            inputs.get(i).putBarrierOvertaking(b);
        }
        return i;
    }

    /** Whether {@code PrioritizeBarrier} is enabled on input {@code i} now. */
    boolean prioritizeEnabled(int i) {
        return task.canPrioritizeBarrier(i);
    }

    /** The element at the head of input {@code i} as "rec", "C"/"Cu" for a barrier, or null. */
    String head(int i) {
        Message e = inputs.get(i).peek();
        return e == null ? null : e instanceof Barrier b ? b.checkpointId() + (b.aligned() ? "" : "u") : e instanceof Record ? "rec" : e.toString();
    }

    /** Whether {@code TimeoutAlignment} is enabled now (for any checkpoint). */
    boolean timeoutEnabled() {
        return task.alignmentTimeoutDue().isPresent();
    }

    /** Forwarded barriers in order, as "C" for aligned and "Cu" for unaligned ones ("Cs" savepoints). */
    List<String> forwardedBarriers() {
        return forwarded.stream().filter(e -> e instanceof Barrier).map(e -> (Barrier) e)
                .map(b -> b.checkpointId() + (b.aligned() ? (b.savepoint() ? "s" : "") : "u")).toList();
    }

    /** Records persisted as output channel state per acknowledged checkpoint (the overtaken ones): offsets. */
    Map<Long, Integer> overtaken() {
        Map<Long, Integer> out = new LinkedHashMap<>();
        for (Acknowledgement a : coordinator.acks) {
            out.put(a.checkpointId(), a.outputChannelState().values().stream().mapToInt(List::size).sum());
        }
        return out;
    }

    /** Records still queued on input {@code i}. */
    int queued(int i) {
        return inputs.get(i).recordCount();
    }

    /** Checkpoints whose barrier the task forwarded (aligned and at-least-once: snapshot taken; unaligned: started). */
    List<Long> snapshots() {
        return forwarded.stream().filter(e -> e instanceof Barrier).map(e -> ((Barrier) e).checkpointId()).toList();
    }

    /** Checkpoints the task acknowledged, in order. */
    List<Long> acknowledged() {
        return coordinator.acks.stream().map(Acknowledgement::checkpointId).toList();
    }

    /** Checkpoints the task abandoned: cancellation barriers it forwarded, in order. */
    List<Long> cancelled() {
        return forwarded.stream().filter(e -> e instanceof CancelBarrier).map(e -> ((CancelBarrier) e).checkpointId())
                .toList();
    }

    /** Checkpoints the task declined (gave up for a newer one). */
    List<Long> declined() {
        return coordinator.declined;
    }

    /** Records persisted as input channel state per acknowledged checkpoint: checkpoint -> "input:offset" list. */
    Map<Long, List<String>> persisted() {
        Map<Long, List<String>> out = new LinkedHashMap<>();
        for (Acknowledgement a : coordinator.acks) {
            List<String> recs = new ArrayList<>();
            for (int i = 0; i < inputs.size(); i++) {
                for (Record r : a.inputChannelState().getOrDefault(inputs.get(i).id(), List.of())) {
                    recs.add(i + ":" + r.id().offset());
                }
            }
            out.put(a.checkpointId(), recs);
        }
        return out;
    }

    /** The blocked inputs now. */
    TreeSet<Integer> blocked() {
        TreeSet<Integer> b = new TreeSet<>();
        IntStream.range(0, inputs.size()).filter(task::isBlocked).forEach(b::add);
        return b;
    }

    boolean endOfPartitionForwarded() {
        return forwarded.contains(EndOfPartition.INSTANCE);
    }

    /** Every record taken was passed on, in order, and nothing is left on the inputs. */
    void assertAllRecordsPassedOn() {
        long taken = java.util.Arrays.stream(offsets).sum();
        assertEquals(taken, forwarded.stream().filter(e -> e instanceof Record).count(), "records forwarded");
        inputs.forEach(c -> assertEquals(List.of(), c.contents(), "input " + c.id() + " drained"));
    }
}
