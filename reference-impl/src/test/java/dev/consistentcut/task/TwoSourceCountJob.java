package dev.consistentcut.task;

import dev.consistentcut.channel.Channel;
import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.Partitioning;
import dev.consistentcut.graph.PhysicalGraph;
import dev.consistentcut.operator.KeyedCount;
import dev.consistentcut.operator.RecordingSink;
import dev.consistentcut.source.InMemorySourceLog;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The job the task package's tests drive step by step by hand: {@code s1, s2 -> count -> sink},
 * parallelism 1, every channel holding {@code capacity} records, with its channels, a
 * {@link FakeGateway}, and an observer that keeps every event. One
 * fixture, so that the tests of the steps, their events, their contracts and their edges all run
 * on the same job. Not thread-safe: one test, one thread.
 */
final class TwoSourceCountJob {

    static final String S1 = "s1#0->count#0";
    static final String S2 = "s2#0->count#0";
    static final String OUT = "count#0->sink#0";

    final PhysicalGraph graph;
    final Map<String, Channel> channels = new LinkedHashMap<>();
    final FakeGateway gateway = new FakeGateway();
    /** Every event {@link #observer} saw. */
    final List<RunEvent> events = new ArrayList<>();
    final RunObserver observer = events::add;

    TwoSourceCountJob(int capacity) {
        graph = PhysicalGraph.of(JobGraph.builder()
                .source("s1", InMemorySourceLog.ofKeys(1, 2, 3))
                .source("s2", InMemorySourceLog.ofKeys(4, 5))
                .operator("count", 1, KeyedCount::new)
                .operator("sink", 1, RecordingSink::new)
                .edge("s1", "count", Partitioning.FORWARD, capacity)
                .edge("s2", "count", Partitioning.FORWARD, capacity)
                .edge("count", "sink", Partitioning.FORWARD, capacity)
                .build());
        graph.channels().forEach(c -> channels.put(c.id(), new Channel(c.id(), c.capacity())));
    }

    /** The last event {@link #observer} saw. */
    RunEvent last() {
        return events.get(events.size() - 1);
    }
}
