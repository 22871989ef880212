package dev.consistentcut.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.Partitioning;
import dev.consistentcut.graph.PhysicalGraph;
import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import dev.consistentcut.operator.RecordingSink;
import dev.consistentcut.source.InMemorySourceLog;
import dev.consistentcut.source.SourceLog;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The universe as a view of the logs gives what a copy of every record would: the same records in
 * the same order, and each record id's position in it (empty logs among them included).
 */
class UniverseTest {

    @Test
    void theViewIsTheListOfEveryLogsRecordsInSourceOrderAndFindsEachRecordsPosition() {
        Random random = new Random(7);
        for (int run = 0; run < 50; run++) {
            int parallelism = 1 + random.nextInt(4);
            SourceLog[] logs = new SourceLog[parallelism];
            for (int j = 0; j < parallelism; j++) {
                int length = random.nextInt(4) == 0 ? 0 : random.nextInt(30);
                logs[j] = InMemorySourceLog.randomKeys(length, 5, random.nextLong());
            }
            PhysicalGraph graph = PhysicalGraph.of(JobGraph.builder().source("s", logs)
                    .operator("sink", 1, RecordingSink::new).edge("s", "sink", Partitioning.HASH).build());
            List<Record> copy = new ArrayList<>();
            for (String s : graph.sourceTasks()) {
                for (long off = 0; off < graph.log(s).length(); off++) {
                    copy.add(graph.log(s).read(s, off));
                }
            }
            Universe universe = new Universe(graph);
            assertEquals(copy, universe, "run " + run);
            for (int i = 0; i < copy.size(); i++) {
                RecordId id = copy.get(i).id();
                assertEquals(i, universe.position(id), "run " + run + ", " + id);
                assertTrue(universe.has(id));
                assertEquals(copy.get(i), universe.byId(id));
            }
            for (String s : graph.sourceTasks()) {
                RecordId past = new RecordId(s, graph.log(s).length());
                assertEquals(-1, universe.position(past), past.toString());
                assertNull(universe.byId(past));
            }
            assertFalse(universe.has(new RecordId("nowhere#0", 0)));
            assertThrows(IndexOutOfBoundsException.class, () -> universe.get(copy.size()));
            assertThrows(IndexOutOfBoundsException.class, () -> universe.get(-1));
        }
    }
}
