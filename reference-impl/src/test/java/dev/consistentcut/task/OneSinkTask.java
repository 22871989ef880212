package dev.consistentcut.task;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.channel.Channel;
import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.Partitioning;
import dev.consistentcut.graph.PhysicalGraph;
import dev.consistentcut.sink.MemorySinkDirectory;
import dev.consistentcut.sink.TransactionalFileSink;
import dev.consistentcut.source.InMemorySourceLog;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One aligned task {@code out#0} running a {@link TransactionalFileSink} into {@link #dir}, fed by
 * source {@code s} through the channel {@link #in} (capacity 4), started from the initial state:
 * the test drives both ends by hand. Single-threaded, as the tests that use it.
 */
final class OneSinkTask {

    final MemorySinkDirectory dir = new MemorySinkDirectory();
    final Channel in;
    final OperatorTask out;

    OneSinkTask(CoordinatorGateway gateway, RunObserver observer) {
        PhysicalGraph job = PhysicalGraph.of(JobGraph.builder()
                .source("s", InMemorySourceLog.ofKeys(1, 2, 3))
                .operator("out", 1, () -> new TransactionalFileSink(dir))
                .edge("s", "out", Partitioning.FORWARD, 4)
                .build());
        Map<String, Channel> channels = new LinkedHashMap<>();
        job.channels().forEach(c -> channels.put(c.id(), new Channel(c.id(), c.capacity())));
        in = channels.get("s#0->out#0");
        out = new OperatorTask("out#0", job, channels, BarrierHandlers.aligned(), gateway, observer, true);
        out.restore(null);
    }
}
