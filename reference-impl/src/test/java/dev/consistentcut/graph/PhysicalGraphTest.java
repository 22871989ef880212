package dev.consistentcut.graph;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.graph.PhysicalGraph.ChannelSpec;
import dev.consistentcut.operator.Join;
import dev.consistentcut.operator.KeyedCount;
import dev.consistentcut.operator.MapOperator;
import dev.consistentcut.operator.RecordingSink;
import dev.consistentcut.source.InMemorySourceLog;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PhysicalGraphTest {

    private static final InMemorySourceLog LOG = InMemorySourceLog.ofKeys(1, 2, 3);

    @Test
    void tasksAndChannelsGetReadableUniqueIds() {
        PhysicalGraph p = PhysicalGraph.of(JobGraph.builder()
                .source("s1", LOG)
                .source("s2", LOG)
                .operator("count", 2, KeyedCount::new)
                .operator("sink", 1, RecordingSink::new)
                .edge("s1", "count", Partitioning.HASH)
                .edge("s2", "count", Partitioning.HASH)
                .edge("count", "sink", Partitioning.HASH)
                .build());
        assertEquals(List.of("s1#0", "s2#0"), p.sourceTasks());
        assertEquals(List.of("count#0", "count#1", "sink#0"), p.operatorTasks());
        assertEquals(List.of("s1#0->count#0", "s2#0->count#0"),
                p.inputs("count#0").stream().map(ChannelSpec::id).toList());
        assertEquals(List.of("count#0->sink#0", "count#1->sink#0"),
                p.inputs("sink#0").stream().map(ChannelSpec::id).toList());
        assertEquals(6, p.channels().size());
        assertEquals(6, new HashSet<>(p.channels().stream().map(ChannelSpec::id).toList()).size());
        ChannelSpec c = p.channel("s2#0->count#1");
        assertEquals(1, c.receiverInput());
        assertEquals(1, c.logicalInput());
    }

    @Test
    void hashRoutesEachKeyToExactlyTheInstanceItsHashPicks() {
        PhysicalGraph p = PhysicalGraph.of(JobGraph.builder()
                .source("s", LOG)
                .operator("count", 3, KeyedCount::new)
                .edge("s", "count", Partitioning.HASH)
                .build());
        Set<Integer> used = new HashSet<>();
        for (long key = -20; key < 20; key++) {
            int[] route = p.route("s#0", key);
            assertEquals(1, route.length);
            int target = Partitioning.hashTarget(key, 3, KeyGroups.DEFAULT_MAX_PARALLELISM);
            assertTrue(target >= 0 && target < 3);
            assertEquals("s#0->count#" + target, p.outputs("s#0").get(route[0]).id());
            used.add(target);
        }
        assertEquals(Set.of(0, 1, 2), used, "consecutive keys spread over every instance");
    }

    @Test
    void broadcastRoutesEverywhereAndForwardKeepsTheIndex() {
        PhysicalGraph p = PhysicalGraph.of(JobGraph.builder()
                .source("s", LOG)
                .operator("a", 2, () -> new MapOperator(v -> v))
                .operator("b", 2, KeyedCount::new)
                .edge("s", "a", Partitioning.BROADCAST)
                .edge("a", "b", Partitioning.FORWARD)
                .build());
        assertArrayEquals(new int[] {0, 1}, p.route("s#0", 7));
        assertEquals(List.of("a#1->b#1"), p.outputs("a#1").stream().map(ChannelSpec::id).toList());
        assertEquals("a#1->b#1", p.outputs("a#1").get(p.route("a#1", 7)[0]).id());
        assertEquals(2, p.channels().stream().filter(c -> c.sender().startsWith("a#")).count(), "FORWARD builds only i->i");
    }

    @Test
    void pathsCountsRoutesThroughADiamond() {
        // s --BROADCAST--> a (2 instances) --HASH--> sink (1): every record reaches the sink twice.
        PhysicalGraph p = PhysicalGraph.of(JobGraph.builder()
                .source("s", LOG)
                .operator("a", 2, () -> new MapOperator(v -> v))
                .operator("sink", 1, RecordingSink::new)
                .edge("s", "a", Partitioning.BROADCAST)
                .edge("a", "sink", Partitioning.HASH)
                .build());
        long key = 5;
        assertEquals(2, p.paths("s#0", key, "sink#0"));
        assertEquals(1, p.paths("s#0", key, "a#0"));
        assertEquals(1, p.paths("a#1", key, "sink#0"));
        assertEquals(1, p.paths("sink#0", key, "sink#0"), "paths(t, r, t) = 1");
        assertEquals(0, p.paths("sink#0", key, "a#0"), "no route upstream");
        assertEquals(0, p.paths("a#0", key, "a#1"), "no route between siblings");
    }

    @Test
    void pathsThroughAJoinAddUpBothSides() {
        // s feeds the join on both inputs (via two maps): every record reaches it twice.
        PhysicalGraph p = PhysicalGraph.of(JobGraph.builder()
                .source("s", LOG)
                .operator("left", 1, () -> new MapOperator(v -> v))
                .operator("right", 1, () -> new MapOperator(v -> v))
                .operator("join", 2, Join::new)
                .edge("s", "left", Partitioning.FORWARD)
                .edge("s", "right", Partitioning.FORWARD)
                .edge("left", "join", Partitioning.HASH)
                .edge("right", "join", Partitioning.HASH)
                .build());
        int target = Partitioning.hashTarget(9, 2, KeyGroups.DEFAULT_MAX_PARALLELISM);
        assertEquals(2, p.paths("s#0", 9, "join#" + target));
        assertEquals(0, p.paths("s#0", 9, "join#" + (1 - target)));
    }

    @Test
    void unknownTaskOrChannelIsNamed() {
        PhysicalGraph p = PhysicalGraph.of(JobGraph.builder()
                .source("s", LOG)
                .operator("a", 1, KeyedCount::new)
                .edge("s", "a", Partitioning.FORWARD)
                .build());
        assertEquals("unknown task instance 'a#4'", assertThrows(IllegalArgumentException.class, () -> p.task("a#4")).getMessage());
        assertEquals("unknown channel 'x->y'", assertThrows(IllegalArgumentException.class, () -> p.channel("x->y")).getMessage());
    }
}
