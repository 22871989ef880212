package dev.consistentcut.trace;

import dev.consistentcut.text.Json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.channel.Channel;
import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.Partitioning;
import dev.consistentcut.graph.PhysicalGraph;
import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import dev.consistentcut.operator.KeyedCount;
import dev.consistentcut.source.InMemorySourceLog;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TraceRecorderTest {

    /** s#0 hashes keys 0..3 over count#0 and count#1; nothing else. */
    static final JobGraph JOB = JobGraph.builder()
            .source("s", InMemorySourceLog.ofKeys(0, 1, 2, 3))
            .operator("count", 2, KeyedCount::new)
            .edge("s", "count", Partitioning.HASH, 3)
            .build();
    static final PhysicalGraph GRAPH = PhysicalGraph.of(JOB);

    private final StringWriter out = new StringWriter();
    private final Map<String, Channel> channels = Map.of("s#0->count#0", new Channel("s#0->count#0", 3),
            "s#0->count#1", new Channel("s#0->count#1", 3));

    private TraceRecorder recorder() {
        TraceRecorder r = new TraceRecorder(out, "test", JOB, BarrierHandlers.unaligned(), "simulation", 4);
        r.attach(recorderView());
        return r;
    }

    private TraceRecorder.StateView recorderView() {
        return new TraceRecorder.StateView() {
            @Override
            public Channel channel(String id) {
                return channels.get(id);
            }

            @Override
            public long sourceOffset(String task) {
                return 1;
            }

            @Override
            public Map<RecordId, Integer> processed(String task) {
                return Map.of(new RecordId("s#0", 0), 2);
            }
        };
    }

    private List<Object> lines() {
        return out.toString().lines().map(Json::parse).toList();
    }

    @Test
    void theHeaderDescribesTheTopologyAsTheSpecsConstants() {
        recorder();
        Map<?, ?> h = (Map<?, ?>) lines().get(0);
        assertEquals(TraceRecorder.FORMAT, h.get("trace"));
        assertEquals("unaligned", h.get("mode"));
        assertEquals(List.of("s#0"), h.get("sources"));
        assertEquals(List.of("count#0", "count#1"), h.get("operators"));
        assertEquals(List.of(List.of("s#0", "count#0"), List.of("s#0", "count#1")), h.get("edges"));
        assertEquals(List.of(List.of("s#0", 4L)), h.get("records"));
        assertEquals(3L, h.get("capacity"));
        assertEquals(1L, h.get("maxConcurrent"), "unaligned: one checkpoint in flight, whatever was asked");
        // Route(s#0, record at offset k): the one channel the engine's hash partitioner picks for key k.
        List<?> routes = (List<?>) h.get("routes");
        List<?> fromSource = (List<?>) ((List<?>) routes.get(0)).get(1);
        assertEquals(List.of("s#0", "s#0"), ((List<?>) routes.get(0)).get(0));
        for (int k = 0; k < 4; k++) {
            String target = GRAPH.outputs("s#0").get(GRAPH.route("s#0", k)[0]).receiver();
            assertEquals(List.of(List.of("s#0", target)), fromSource.get(k), "route of offset " + k);
        }
        // Operators have no out-edges: every route is empty.
        assertEquals(List.of(List.of("count#0", "s#0"), List.of(List.of(), List.of(), List.of(), List.of())), routes.get(1));
    }

    @Test
    void anEventCarriesItsParametersAndTheChannelsItTouchedAsTheyAreNow() {
        TraceRecorder r = recorder();
        int target = GRAPH.route("s#0", 0)[0];
        String channel = GRAPH.outputs("s#0").get(target).id();
        channels.get(channel).offerRecord(new Record(new RecordId("s#0", 0), 0, 1));
        r.onAction("EmitRecord", Map.of("task", "s#0", "record", new RecordId("s#0", 0)));
        r.onAction("FailAndRestore", Map.of("checkpoint", 0L));

        Map<?, ?> emit = (Map<?, ?>) lines().get(1);
        assertEquals("EmitRecord", emit.get("event"));
        assertEquals(Map.of("src", "s#0", "off", 0L), emit.get("record"));
        assertEquals(1L, emit.get("offset"));
        String receiver = GRAPH.channel(channel).receiver();
        assertEquals(List.of(List.of(List.of("s#0", receiver), List.of(Map.of("src", "s#0", "off", 0L)))), emit.get("channels"));

        Map<?, ?> fail = (Map<?, ?>) lines().get(2);
        assertEquals(0L, fail.get("restored"));
        assertEquals(List.of(List.of("s#0", 1L)), fail.get("offsets"));
        assertEquals(List.of(List.of("count#0", List.of(List.of(Map.of("src", "s#0", "off", 0L), 2L))),
                List.of("count#1", List.of(List.of(Map.of("src", "s#0", "off", 0L), 2L)))), fail.get("processed"));
        assertEquals(2, ((List<?>) fail.get("channels")).size(), "a restore records every channel");
        assertEquals(2, r.events());
    }

    @Test
    void theLifecycleEventsCarryWhatTheStepDidAndCancellationAndEndOfPartitionAreMessages() {
        TraceRecorder r = new TraceRecorder(out, "test", JOB, BarrierHandlers.atLeastOnce(), "simulation", 2, true, true);
        r.attach(recorderView());
        Map<?, ?> h = (Map<?, ?>) lines().get(0);
        assertEquals("at-least-once", h.get("mode"), "at-least-once has its own trace spec");
        assertEquals(true, h.get("abortsReachTasks"));
        assertEquals(true, h.get("endOfInput"));
        Channel c0 = channels.get("s#0->count#0");
        c0.putCancelBarrier(new dev.consistentcut.message.CancelBarrier(2), false);
        c0.putEndOfPartition();
        r.onAction("SendEndOfPartition", Map.of("task", "s#0", "offset", 4L));
        r.onAction("NotifyCheckpointAborted", Map.of("task", "count#0", "checkpoint", 3L, "abandoned", List.of(),
                "remembered", true));
        r.onAction("ReceiveCancelBarrier", Map.of("task", "count#0", "channel", "s#0->count#0", "checkpoint", 2L,
                "abandoned", List.of(1L, 2L)));
        r.onAction("ReceiveEndOfPartition", Map.of("task", "count#0", "channel", "s#0->count#0", "ended", true,
                "checkpoint", 2L, "snapshot", Map.of(new RecordId("s#0", 0), 1)));
        r.onAction("AbortCheckpoint", Map.of("checkpoint", 4L, "declinedBy", "count#1"));
        r.runEnded(false);

        Map<?, ?> eop = (Map<?, ?>) lines().get(1);
        assertEquals(4L, eop.get("offset"));
        assertEquals(List.of(List.of("s#0", "count#0"), List.of(Map.of("cancel", 2L), Map.of("eop", true))),
                ((List<?>) eop.get("channels")).get(0), "a cancellation barrier and end of partition as messages");
        Map<?, ?> notify = (Map<?, ?>) lines().get(2);
        assertEquals(List.of(), notify.get("abandoned"));
        assertEquals(true, notify.get("remembered"));
        assertEquals(List.of(), notify.get("channels"), "count#0 has no outputs");
        Map<?, ?> cancel = (Map<?, ?>) lines().get(3);
        assertEquals(List.of("s#0", "count#0"), cancel.get("channel"));
        assertEquals(List.of(1L, 2L), cancel.get("abandoned"));
        Map<?, ?> end = (Map<?, ?>) lines().get(4);
        assertEquals(true, end.get("ended"));
        assertEquals(2L, end.get("checkpoint"));
        assertEquals(List.of(List.of(Map.of("src", "s#0", "off", 0L), 1L)), end.get("snapshot"));
        assertEquals("count#1", ((Map<?, ?>) lines().get(5)).get("declinedBy"));
        assertEquals(Map.of("event", "RunEnded", "finished", false), lines().get(6));
        assertEquals(6, r.events());
        assertMessage(() -> r.onAction("NotifyCheckpointAborted", Map.of("task", "count#0", "checkpoint", 3L,
                "remembered", true)), "NotifyCheckpointAborted needs parameter 'abandoned' as a list of checkpoint ids");
        assertMessage(() -> r.onAction("ReceiveEndOfPartition", Map.of("task", "count#0", "channel", "s#0->count#0")),
                "ReceiveEndOfPartition needs parameter 'ended' as a boolean");
    }

    @Test
    void misuseIsRejectedNamingWhatIsWrong() {
        TraceRecorder unattached = new TraceRecorder(new StringWriter(), "t", JOB, BarrierHandlers.aligned(), "x", 1);
        assertMessage(() -> unattached.onAction("TriggerCheckpoint", Map.of("checkpoint", 1L)),
                "TriggerCheckpoint happened before a state view was attached");
        TraceRecorder r = recorder();
        assertMessage(() -> r.onAction("Teleport", Map.of()), "'Teleport' is no action of the specification");
        assertMessage(() -> r.onAction("InjectBarrier", Map.of("task", "s#0", "checkpoint", 1L)),
                "InjectBarrier needs parameter 'offset' as a number");
        assertMessage(() -> r.onAction("CompleteCheckpoint", Map.of("checkpoint", 1L)),
                "CompleteCheckpoint(1) without the completed checkpoint");
        r.close();
        assertMessage(() -> r.onAction("TriggerCheckpoint", Map.of("checkpoint", 1L)), "trace test is closed");
    }

    private static void assertMessage(Runnable r, String part) {
        RuntimeException e = assertThrows(RuntimeException.class, r::run);
        assertTrue(e.getMessage().contains(part), "message '" + e.getMessage() + "' should contain '" + part + "'");
    }
}
