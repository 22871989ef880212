package dev.consistentcut.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.causal.VectorClocks;
import dev.consistentcut.channel.Channel;
import dev.consistentcut.channel.ChannelClock;
import dev.consistentcut.message.RecordId;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A trace file appears only when its recording is complete (written to {@code FILE.part}, renamed
 * on {@link TraceRecorder#close}): a recording that fails, as a causal merge that finds no order
 * did, leaves no file, not even an empty one (tests/trace-coverage.py read that one and crashed).
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class TraceFileTest {

    @TempDir
    Path dir;

    private static final TraceRecorder.StateView NO_STATE = new TraceRecorder.StateView() {
        @Override
        public Channel channel(String channelId) {
            throw new UnsupportedOperationException(channelId);
        }

        @Override
        public long sourceOffset(String sourceTask) {
            return 0;
        }

        @Override
        public Map<RecordId, Integer> processed(String operatorTask) {
            return Map.of();
        }
    };

    @Test
    void theFileAppearsWhenTheRecordingIsClosedAndReplacesAnOlderOneOnlyThen() throws Exception {
        Path f = dir.resolve("t.ndjson");
        Files.writeString(f, "an older trace\n");
        TraceRecorder r = TraceRecorder.open(f, TraceRecorderTest.JOB, BarrierHandlers.aligned(), "simulation", 1);
        assertFalse(Files.exists(f), "no trace file while recording, not the older one either");
        assertTrue(Files.exists(dir.resolve("t.ndjson.part")));
        r.close();
        assertTrue(Files.readString(f).startsWith("{\"trace\":"), "the header");
        assertFalse(Files.exists(dir.resolve("t.ndjson.part")));
    }

    @Test
    void aDiscardedRecordingLeavesNoFile() throws Exception {
        Path f = dir.resolve("d.ndjson");
        TraceRecorder.open(f, TraceRecorderTest.JOB, BarrierHandlers.aligned(), "simulation", 1).discard();
        assertEquals(List.of(), Files.list(dir).toList());
    }

    /** Clocks with a cycle: a's event after b's first, b's first after a's: the merge fails in close(). */
    @Test
    void aCausalMergeThatFindsNoOrderLeavesNoFile() throws Exception {
        VectorClocks clocks = new VectorClocks(List.of("a", "b", VectorClocks.COORDINATOR));
        Path f = dir.resolve("c.ndjson");
        TraceRecorder r = TraceRecorder.open(f, TraceRecorderTest.JOB, BarrierHandlers.aligned(), "threads", 1,
                true, false, clocks, 1);
        r.attach(NO_STATE);
        ChannelClock ab = clocks.channel(1);
        ChannelClock ba = clocks.channel(1);
        clocks.bind("a");
        ab.put(false, false); // carries a's event #1
        clocks.bind("b");
        ab.take(false);
        r.runEnded(true); // b #1, after a #1
        ba.put(false, false); // carries b's #2, which b never records: it stands for b's #1 at the end
        clocks.bind("a");
        ba.take(false);
        r.runEnded(true); // a #1, after b's #1: a cycle
        IllegalStateException e = assertThrows(IllegalStateException.class, r::close);
        assertTrue(e.getMessage().contains("no event can come next"), e.getMessage());
        assertEquals(List.of(), Files.list(dir).toList(), "no trace file, no part file");
    }
}
