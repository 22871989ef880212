package dev.consistentcut.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.operator.Join;
import dev.consistentcut.operator.KeyedCount;
import dev.consistentcut.operator.RecordingSink;
import dev.consistentcut.source.InMemorySourceLog;
import dev.consistentcut.source.SourceLog;
import org.junit.jupiter.api.Test;

class JobGraphValidationTest {

    private static final SourceLog LOG = InMemorySourceLog.ofKeys(1, 2, 3);

    private static String rejection(JobGraph.Builder builder) {
        return assertThrows(IllegalArgumentException.class, builder::build).getMessage();
    }

    @Test
    void aValidGraphBuilds() {
        JobGraph g = JobGraph.builder()
                .source("s", LOG)
                .operator("count", 2, KeyedCount::new)
                .operator("sink", 1, RecordingSink::new)
                .edge("s", "count", Partitioning.HASH)
                .edge("count", "sink", Partitioning.HASH, 4)
                .build();
        assertEquals(3, g.nodes().size());
        assertEquals(4, g.edges().get(1).capacity());
        assertEquals(16, g.edges().get(0).capacity(), "default capacity");
    }

    @Test
    void aKeyedParallelismAboveTheMaxParallelismIsRejected() {
        JobGraph.Builder b = JobGraph.builder().maxParallelism(2)
                .source("s", LOG)
                .operator("count", 3, KeyedCount::new)
                .edge("s", "count", Partitioning.HASH);
        assertEquals("operator 'count': keyed parallelism 3 exceeds the max parallelism 2", rejection(b));
        JobGraph g = JobGraph.builder().maxParallelism(3).source("s", LOG).operator("count", 3, KeyedCount::new)
                .edge("s", "count", Partitioning.HASH).build();
        assertEquals(3, g.maxParallelism());
        assertEquals(1, g.withParallelism("count", 1).node("count").parallelism());
        assertEquals(3, g.withParallelism("count", 1).maxParallelism());
        assertThrows(IllegalArgumentException.class, () -> g.withParallelism("count", 4));
    }

    @Test
    void cycleIsRejectedNamingItsNodes() {
        String m = rejection(JobGraph.builder()
                .source("s", LOG)
                .operator("a", 1, KeyedCount::new)
                .operator("b", 1, KeyedCount::new)
                .operator("c", 1, KeyedCount::new)
                .edge("s", "a", Partitioning.FORWARD)
                .edge("a", "b", Partitioning.FORWARD)
                .edge("b", "c", Partitioning.FORWARD)
                .edge("c", "a", Partitioning.FORWARD));
        assertEquals("cycle: a -> b -> c -> a", m);
    }

    @Test
    void selfLoopIsACycle() {
        String m = rejection(JobGraph.builder()
                .source("s", LOG)
                .operator("a", 1, KeyedCount::new)
                .edge("s", "a", Partitioning.FORWARD)
                .edge("a", "a", Partitioning.FORWARD));
        assertEquals("cycle: a -> a", m);
    }

    @Test
    void edgeToAnUnknownNodeNamesIt() {
        String m = rejection(JobGraph.builder()
                .source("s", LOG)
                .operator("a", 1, KeyedCount::new)
                .edge("s", "a", Partitioning.FORWARD)
                .edge("a", "nowhere", Partitioning.HASH));
        assertEquals("edge a->nowhere: unknown node 'nowhere'", m);
    }

    @Test
    void edgeFromAnUnknownNodeNamesIt() {
        String m = rejection(JobGraph.builder()
                .source("s", LOG)
                .operator("a", 1, KeyedCount::new)
                .edge("s", "a", Partitioning.FORWARD)
                .edge("ghost", "a", Partitioning.HASH));
        assertEquals("edge ghost->a: unknown node 'ghost'", m);
    }

    @Test
    void duplicateEdgeIsRejected() {
        String m = rejection(JobGraph.builder()
                .source("s", LOG)
                .operator("a", 1, KeyedCount::new)
                .edge("s", "a", Partitioning.FORWARD)
                .edge("s", "a", Partitioning.HASH));
        assertEquals("duplicate edge s->a", m);
    }

    @Test
    void danglingOperatorWithoutInputIsRejected() {
        String m = rejection(JobGraph.builder()
                .source("s", LOG)
                .operator("a", 1, KeyedCount::new)
                .operator("lonely", 1, KeyedCount::new)
                .edge("s", "a", Partitioning.FORWARD));
        assertEquals("operator 'lonely' is dangling: it has no in-edge", m);
    }

    @Test
    void danglingSourceWithoutOutputIsRejected() {
        String m = rejection(JobGraph.builder()
                .source("s", LOG)
                .source("unused", LOG)
                .operator("a", 1, KeyedCount::new)
                .edge("s", "a", Partitioning.FORWARD));
        assertEquals("source 'unused' is dangling: it has no out-edge", m);
    }

    @Test
    void edgeIntoASourceIsRejected() {
        String m = rejection(JobGraph.builder()
                .source("s", LOG)
                .operator("a", 1, KeyedCount::new)
                .edge("s", "a", Partitioning.FORWARD)
                .edge("a", "s", Partitioning.FORWARD));
        assertEquals("edge a->s: 's' is a source and cannot have inputs", m);
    }

    @Test
    void nonPositiveCapacityNamesTheEdge() {
        String m = rejection(JobGraph.builder()
                .source("s", LOG)
                .operator("a", 1, KeyedCount::new)
                .edge("s", "a", Partitioning.FORWARD, 0));
        assertEquals("edge s->a: capacity must be >= 1, got 0", m);
        IllegalArgumentException d = assertThrows(IllegalArgumentException.class,
                () -> JobGraph.builder().defaultCapacity(-3));
        assertEquals("default capacity must be >= 1, got -3", d.getMessage());
    }

    @Test
    void nonPositiveParallelismNamesTheOperator() {
        String m = rejection(JobGraph.builder()
                .source("s", LOG)
                .operator("a", 0, KeyedCount::new)
                .edge("s", "a", Partitioning.HASH));
        assertEquals("operator 'a': parallelism must be >= 1, got 0", m);
        String source = rejection(JobGraph.builder()
                .source("s")
                .operator("a", 1, KeyedCount::new)
                .edge("s", "a", Partitioning.HASH));
        assertTrue(source.startsWith("source 's': parallelism must be >= 1, got 0"), source);
    }

    @Test
    void forwardWithUnequalParallelismNamesBothSides() {
        String m = rejection(JobGraph.builder()
                .source("s", LOG)
                .operator("a", 2, KeyedCount::new)
                .edge("s", "a", Partitioning.FORWARD));
        assertEquals("edge s->a: FORWARD needs equal parallelism, 's' has 1 and 'a' has 2", m);
    }

    @Test
    void duplicateNodeNameIsRejected() {
        String m = rejection(JobGraph.builder()
                .source("x", LOG)
                .operator("x", 1, KeyedCount::new)
                .edge("x", "x", Partitioning.FORWARD));
        assertEquals("duplicate node name 'x'", m);
    }

    @Test
    void namesThatWouldBreakIdsAreRejected() {
        String m = rejection(JobGraph.builder()
                .source("s#1", LOG)
                .operator("a", 1, KeyedCount::new)
                .edge("s#1", "a", Partitioning.FORWARD));
        assertTrue(m.startsWith("source 's#1': a name may not contain '#'"), m);
        String blank = rejection(JobGraph.builder().source(" ", LOG));
        assertEquals("a source has a blank name", blank);
    }

    @Test
    void joinNeedsTwoInEdges() {
        String m = rejection(JobGraph.builder()
                .source("s", LOG)
                .operator("join", 1, Join::new)
                .edge("s", "join", Partitioning.HASH));
        assertEquals("operator 'join' needs 2 in-edges, has 1", m);
    }

    @Test
    void emptyGraphIsRejected() {
        assertEquals("job graph has no nodes", rejection(JobGraph.builder()));
    }
}
