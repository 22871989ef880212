package dev.consistentcut.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.KeyGroups;
import dev.consistentcut.graph.Partitioning;
import dev.consistentcut.operator.KeyedCount;
import dev.consistentcut.operator.MapOperator;
import dev.consistentcut.source.InMemorySourceLog;
import dev.consistentcut.runtime.Rescaling;
import dev.consistentcut.text.Json;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rescale trace (RescaleTraceRecorder) of a seeded unaligned restore of the join, 2 to 3 and 3
 * to 1, and of the map chain, 2 to 1 and 1 to 2: in
 * the spec's vocabulary, the spec's three steps, every processed record on the new task owning its
 * key group, every stored record on the channel to it; the broken twins' traces
 * (BrokenRescaleTraces) put a stored record elsewhere and the engine's own checks report their
 * runs. TLC's verdicts on both: tests/trace-validation.sh (seconds of TLC each, kept out of the
 * build).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RescaleTraceTest {

    private static final int M = KeyGroups.DEFAULT_MAX_PARALLELISM;

    @TempDir
    Path tmp;

    @Test
    void recordsTheRestoreAsTheSpecsStepsWithWhatTheEngineComputed() throws IOException {
        for (int[] scale : new int[][] {{2, 3}, {3, 1}}) {
            RescaleTraces.Settings s = new RescaleTraces.Settings("unaligned", scale[0], scale[1], 12, 2, 1);
            Path file = tmp.resolve("rescale-" + scale[0] + "-" + scale[1] + ".ndjson");
            RescaleTraces.Recorded r = RescaleTraces.record(file, s, Rescaling.KEY_GROUPS, Rescaling.KEY_GROUP_ROUTE);
            assertTrue(r.after().holds(), r.after().violations().toString());
            assertTrue(r.checkpoint().persistedRecordCount() > 0, "no record in flight to redistribute");
            assertEquals("rescale", TraceToTla.convert(file).mode());
            List<String> lines = Files.readAllLines(file);
            Map<?, ?> header = (Map<?, ?>) Json.parse(lines.get(0));
            List<Map<?, ?>> events = new ArrayList<>();
            lines.subList(1, lines.size()).forEach(l -> events.add((Map<?, ?>) Json.parse(l)));
            assertEquals(List.of("AssignKeyGroups", "RedistributeChannelState", "RestoreRescaled"),
                    events.stream().map(e -> e.get("event")).toList());
            Map<String, List<?>> log = pairs(header.get("log"));
            Map<?, ?> checkpoint = (Map<?, ?>) header.get("checkpoint");
            // AssignKeyGroups: each processed record, exactly once, on the new task owning its key group
            Set<Object> processed = new HashSet<>();
            pairs(checkpoint.get("processed")).values().forEach(ledger -> ledger.forEach(p -> processed.add(((List<?>) p).get(0))));
            Set<Object> assigned = new HashSet<>();
            for (Object taskLedger : (List<?>) events.get(0).get("assigned")) {
                long task = (Long) ((List<?>) ((List<?>) taskLedger).get(0)).get(1);
                for (Object p : (List<?>) ((List<?>) taskLedger).get(1)) {
                    Object rec = ((List<?>) p).get(0);
                    assertEquals(task, owner(log, rec, scale[1]), rec + " on count#" + task);
                    assertTrue(assigned.add(rec), rec + " assigned twice");
                }
            }
            assertEquals(processed, assigned);
            // ... and each new task's state holds keys of exactly the key groups of its processed records
            for (Object taskGroups : (List<?>) events.get(0).get("keyGroups")) {
                long task = (Long) ((List<?>) ((List<?>) taskGroups).get(0)).get(1);
                Set<Object> expected = new HashSet<>();
                for (Object rec : processed) {
                    if (owner(log, rec, scale[1]) == task) {
                        Map<?, ?> id = (Map<?, ?>) rec;
                        expected.add(log.get((String) id.get("src")).get(((Long) id.get("off")).intValue()));
                    }
                }
                assertEquals(expected, new HashSet<>((List<?>) ((List<?>) taskGroups).get(1)), "key groups of count#" + task);
            }
            // RedistributeChannelState: each stored record, in its old channel's order, on the channel to its owner
            List<Object> stored = new ArrayList<>();
            pairs(checkpoint.get("channelState")).values().forEach(stored::addAll);
            List<Object> moved = new ArrayList<>();
            for (Object ch : (List<?>) events.get(1).get("channels")) {
                List<?> to = (List<?>) ((List<?>) ((List<?>) ch).get(0)).get(1);
                for (Object rec : (List<?>) ((List<?>) ch).get(1)) {
                    assertEquals(to.get(1), owner(log, rec, scale[1]), rec + " on a channel into " + to);
                    moved.add(rec);
                }
            }
            assertEquals(stored.size(), moved.size());
            assertEquals(new HashSet<>(stored), new HashSet<>(moved));
            assertEquals(checkpoint.get("offsets"), events.get(2).get("offsets"));
        }
    }

    /**
     * The map chain (a stateless map between two exchanges, both operators rescaled), unaligned, 2
     * to 1 and 1 to 2: the header names both operators and their parallelisms, the count's ledgers
     * only; the checkpoint stores records on both exchanges (2 to 1); every stored record lands on
     * the channel between its key group's owners; the map's new tasks hold no key group.
     */
    @Test
    void recordsTheMapChainsRestoreWithBothExchangesChannelState() throws IOException {
        for (int[] scale : new int[][] {{2, 1}, {1, 2}}) {
            RescaleTraces.Settings s = new RescaleTraces.Settings("map", "unaligned", scale[0], scale[1], 12, 2, 1);
            Path file = tmp.resolve("map-" + scale[0] + "-" + scale[1] + ".ndjson");
            RescaleTraces.Recorded r = RescaleTraces.record(file, s, Rescaling.KEY_GROUPS, Rescaling.KEY_GROUP_ROUTE);
            assertTrue(r.after().holds(), r.after().violations().toString());
            List<String> lines = Files.readAllLines(file);
            Map<?, ?> header = (Map<?, ?>) Json.parse(lines.get(0));
            assertEquals(List.of("map", "count"), header.get("ops"));
            assertEquals(List.of(List.of("map", (long) scale[0]), List.of("count", (long) scale[0])), header.get("oldPar"));
            assertEquals(List.of(List.of("map", (long) scale[1]), List.of("count", (long) scale[1])), header.get("newPar"));
            Map<?, ?> checkpoint = (Map<?, ?>) header.get("checkpoint");
            for (Object taskLedger : (List<?>) checkpoint.get("processed")) {
                assertEquals("count", ((List<?>) ((List<?>) taskLedger).get(0)).get(0));
            }
            Set<Object> storedInto = new HashSet<>();
            pairs(checkpoint.get("channelState")).forEach((ch, recs) -> {
                if (!recs.isEmpty()) {
                    storedInto.add(ch.contains("count") && ch.startsWith("[[map") ? "count" : "map");
                }
            });
            if (scale[0] == 2) {
                assertEquals(Set.of("map", "count"), storedInto, "stored records on both exchanges");
            }
            Map<String, List<?>> log = pairs(header.get("log"));
            Map<?, ?> assign = (Map<?, ?>) Json.parse(lines.get(1));
            for (Object taskGroups : (List<?>) assign.get("keyGroups")) {
                List<?> task = (List<?>) ((List<?>) taskGroups).get(0);
                if (task.get(0).equals("map")) {
                    assertEquals(List.of(), ((List<?>) taskGroups).get(1), "key groups of a map task");
                }
            }
            for (Object ch : (List<?>) ((Map<?, ?>) Json.parse(lines.get(2))).get("channels")) {
                List<?> ends = (List<?>) ((List<?>) ch).get(0);
                for (Object rec : (List<?>) ((List<?>) ch).get(1)) {
                    for (Object end : ends) {
                        List<?> t = (List<?>) end;
                        if (!t.get(0).equals("s1") && !t.get(0).equals("s2")) {
                            assertEquals(t.get(1), owner(log, rec, scale[1]), rec + " on " + ends);
                        }
                    }
                }
            }
        }
    }

    /** Each twin's trace has a stored record off its key group's channel, and the engine's checks report its run. */
    @Test
    void theBrokenTwinsPutAStoredRecordOffItsKeyGroupsChannelAndTheEngineReportsThem() throws IOException {
        for (BrokenRescaleTraces.Twin t : BrokenRescaleTraces.TWINS) {
            RescaleTraces.Recorded r = BrokenRescaleTraces.record(tmp, t);
            assertFalse(r.after().violations().isEmpty(), t.name() + ": the engine's checks did not report it");
            List<String> lines = Files.readAllLines(tmp.resolve(t.name() + ".ndjson"));
            Map<String, List<?>> log = pairs(((Map<?, ?>) Json.parse(lines.get(0))).get("log"));
            boolean misplaced = false;
            for (Object ch : (List<?>) ((Map<?, ?>) Json.parse(lines.get(2))).get("channels")) {
                List<?> to = (List<?>) ((List<?>) ((List<?>) ch).get(0)).get(1);
                for (Object rec : (List<?>) ((List<?>) ch).get(1)) {
                    misplaced |= !to.get(1).equals(owner(log, rec, t.settings().to()));
                }
            }
            assertTrue(misplaced, t.name() + ": every stored record on its key group's channel");
        }
    }

    /** No rescale (the checkpoint's parallelism is the job's): the observer is told nothing, and no trace is written. */
    @Test
    void aRestoreAtTheSameParallelismTellsTheObserverNothing() {
        Path file = tmp.resolve("same.ndjson");
        RescaleTraces.Settings s = new RescaleTraces.Settings("aligned", 2, 2, 12, 2, 1);
        assertThrows(IllegalStateException.class,
                () -> RescaleTraces.record(file, s, Rescaling.KEY_GROUPS, Rescaling.KEY_GROUP_ROUTE));
        assertFalse(Files.exists(file));
    }

    @Test
    void recordRescaleRefusesBadUsageWithExitTwo() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        PrintStream o = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        String out = tmp.resolve("t.ndjson").toString();
        assertEquals(2, TraceTool.run(new String[] {"record-rescale", "--out", out, "--from", "2", "--to", "2"}, o, e));
        assertEquals(2, TraceTool.run(new String[] {"record-rescale", "--out", out, "--mode", "sideways"}, o, e));
        assertEquals(2, TraceTool.run(new String[] {"record-rescale"}, o, e));
        assertEquals(2, TraceTool.run(new String[] {"record-rescale", "--out", out, "--mode", "at-least-once"}, o, e));
        assertEquals(2, TraceTool.run(new String[] {"record-rescale", "--out", out, "--job", "diamond"}, o, e));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("no rescale to record"), err::toString);
        assertFalse(Files.exists(Path.of(out)));
    }

    /** A job that is not its sources into one chain of HASH edges has no rescale trace: refused before anything is read. */
    @Test
    void theRecorderRefusesAJobThatIsNotAChain() {
        JobGraph fanOut = JobGraph.builder()
                .source("s1", InMemorySourceLog.ofKeys(1, 2, 3))
                .operator("map", 2, () -> new MapOperator(v -> v))
                .operator("count", 2, KeyedCount::new)
                .operator("other", 2, KeyedCount::new)
                .edge("s1", "map", Partitioning.HASH)
                .edge("map", "count", Partitioning.HASH)
                .edge("map", "other", Partitioning.HASH)
                .build();
        JobGraph twoFirsts = JobGraph.builder()
                .source("s1", InMemorySourceLog.ofKeys(1, 2, 3))
                .source("s2", InMemorySourceLog.ofKeys(1, 2, 3))
                .operator("count", 2, KeyedCount::new)
                .operator("other", 2, KeyedCount::new)
                .edge("s1", "count", Partitioning.HASH)
                .edge("s2", "other", Partitioning.HASH)
                .build();
        for (JobGraph job : List.of(fanOut, twoFirsts)) {
            RescaleTraceRecorder recorder = new RescaleTraceRecorder(job, "unaligned");
            assertThrows(IllegalArgumentException.class, () -> recorder.checkpointRead(null, Map.of("count", 1)));
        }
    }

    /** A trace's list of {@code [key, value]} pairs as a map (keys as strings). */
    private static Map<String, List<?>> pairs(Object list) {
        Map<String, List<?>> m = new HashMap<>();
        for (Object p : (List<?>) list) {
            m.put(String.valueOf(((List<?>) p).get(0)), (List<?>) ((List<?>) p).get(1));
        }
        return m;
    }

    /** The new task index owning record {@code rec}'s key group at {@code parallelism} (the header's log gives it). */
    private static long owner(Map<String, List<?>> log, Object rec, int parallelism) {
        Map<?, ?> r = (Map<?, ?>) rec;
        long group = (Long) log.get((String) r.get("src")).get(((Long) r.get("off")).intValue());
        return KeyGroups.owner((int) group, parallelism, M);
    }
}
