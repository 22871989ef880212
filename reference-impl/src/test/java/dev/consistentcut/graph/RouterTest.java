package dev.consistentcut.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import dev.consistentcut.operator.KeyedCount;
import dev.consistentcut.operator.RecordingSink;
import dev.consistentcut.source.InMemorySourceLog;
import org.junit.jupiter.api.Test;

/** {@link PhysicalGraph#router}: the same answers as {@link PhysicalGraph#route}, for every partitioning and key. */
class RouterTest {

    @Test
    void theRouterAnswersAsRouteDoesForEveryTaskAndKey() {
        JobGraph job = JobGraph.builder()
                .source("s1", InMemorySourceLog.randomKeys(4, 16, 1))
                .source("s2", InMemorySourceLog.randomKeys(4, 16, 2))
                .operator("count", 3, KeyedCount::new)
                .operator("fwd", 3, KeyedCount::new)
                .operator("both", 2, KeyedCount::new)
                .operator("sink", 1, RecordingSink::new)
                .edge("s1", "count", Partitioning.HASH)
                .edge("s2", "count", Partitioning.BROADCAST)
                .edge("count", "fwd", Partitioning.FORWARD)
                .edge("fwd", "both", Partitioning.HASH)
                .edge("fwd", "sink", Partitioning.BROADCAST)
                .edge("both", "sink", Partitioning.HASH)
                .build();
        PhysicalGraph g = PhysicalGraph.of(job);
        for (PhysicalGraph.TaskSpec t : g.tasks()) {
            PhysicalGraph.Router r = g.router(t.id());
            for (long key = -40; key < 40; key++) {
                assertArrayEquals(g.route(t.id(), key), r.route(key), t.id() + " key " + key);
            }
        }
    }
}
