package dev.consistentcut.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The TLA+ side of trace validation on a small hand-written trace (aligned, two sources into a
 * join and a sink, one checkpoint, a failure): accepted as written, and rejected at the right
 * event, for the right reason, after each single change that makes it a run the spec forbids.
 */
class TraceValidatorTest {

    static List<String> good;

    @TempDir
    Path dir;

    @BeforeAll
    static void readTrace() throws IOException {
        try (InputStream in = TraceValidatorTest.class.getResourceAsStream("aligned-join.ndjson")) {
            good = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }

    private TraceValidator.Verdict validate(List<String> lines) throws IOException {
        Path f = dir.resolve("t.ndjson");
        Files.write(f, lines, StandardCharsets.UTF_8);
        return Tlc.validator(dir.resolve("logs")).validate(f);
    }

    /** The trace with event {@code i} (line i + 1) replaced by {@code replacement} (null: removed). */
    private static List<String> withEvent(int i, String replacement) {
        List<String> l = new ArrayList<>(good);
        if (replacement == null) {
            l.remove(i);
        } else {
            l.set(i, replacement);
        }
        return l;
    }

    @Test
    void theWrittenTraceIsAccepted() throws IOException {
        TraceValidator.Verdict v = validate(good);
        assertEquals(TraceValidator.Outcome.ACCEPTED, v.outcome(), v.report());
        assertEquals(15, v.events());
    }

    @Test
    void everyPrefixOfAnAcceptedTraceIsAccepted() throws IOException {
        TraceValidator.Verdict v = validate(good.subList(0, 7));
        assertEquals(TraceValidator.Outcome.ACCEPTED, v.outcome(), v.report());
        assertEquals(6, v.events());
    }

    @Test
    void aWrongChannelContentAfterAStepIsCaughtAtThatStep() throws IOException {
        // Event 8: the sink takes s1@0 from j->k; the barrier behind it must still be there.
        String e8 = good.get(8).replace("\"channels\":[[[\"j#0\",\"k#0\"],[{\"ckpt\":1}]]]", "\"channels\":[[[\"j#0\",\"k#0\"],[]]]");
        TraceValidator.Verdict v = validate(withEvent(8, e8));
        assertEquals(TraceValidator.Outcome.REJECTED, v.outcome(), v.report());
        assertEquals(8, v.unexplainedEvent());
        assertTrue(v.report().contains("event 8 of 15 (line 9 of t.ndjson)"), v.report());
        assertTrue(v.report().contains("ProcessRecord(\"k#0\", <<\"j#0\", \"k#0\">>) is enabled, but the engine recorded other values"
                + " than the specification has: channels"), v.report());
        assertTrue(v.report().contains("/\\ i = 8"), v.report());
    }

    @Test
    void aStepTheSpecDoesNotEnableIsCaughtWithTheStateBeforeIt() throws IOException {
        // Event 6 aligned j on s1's barrier; in this variant j then reads s2's input, whose head is a barrier.
        List<String> lines = new ArrayList<>(good);
        lines.add(7, "{\"event\":\"ProcessRecord\",\"task\":\"j#0\",\"channel\":[\"s2#0\",\"j#0\"],"
                + "\"record\":{\"src\":\"s2#0\",\"off\":0},\"channels\":[]}");
        TraceValidator.Verdict v = validate(lines);
        assertEquals(TraceValidator.Outcome.REJECTED, v.outcome(), v.report());
        assertEquals(7, v.unexplainedEvent());
        assertTrue(v.report().contains("ProcessRecord(\"j#0\", <<\"s2#0\", \"j#0\">>) is not enabled"), v.report());
        assertTrue(v.report().contains("/\\ arrived = "), v.report());
    }

    @Test
    void aMissingStepShowsWhereTheRunNoLongerFits() throws IOException {
        // Without event 4 (s2 injects the barrier), j cannot take a barrier from s2 at event 6.
        TraceValidator.Verdict v = validate(withEvent(4, null));
        assertEquals(TraceValidator.Outcome.REJECTED, v.outcome(), v.report());
        assertEquals(6, v.unexplainedEvent());
        assertTrue(v.report().contains("ReceiveBarrier(\"j#0\", <<\"s2#0\", \"j#0\">>) is not enabled"), v.report());
    }

    @Test
    void aWrongCheckpointContentIsCaughtAtItsCompletion() throws IOException {
        String e10 = good.get(10).replace("\"offsets\":[[\"s1#0\",1],", "\"offsets\":[[\"s1#0\",0],");
        TraceValidator.Verdict v = validate(withEvent(10, e10));
        assertEquals(TraceValidator.Outcome.REJECTED, v.outcome(), v.report());
        assertEquals(10, v.unexplainedEvent());
        assertTrue(v.report().contains("offsets (the checkpoint's source offsets)"), v.report());
    }

    @Test
    void aRestoreThatLosesStateIsCaughtAtTheRestore() throws IOException {
        String e12 = good.get(12).replace("\"processed\":[[\"j#0\",[[{\"src\":\"s1#0\",\"off\":0},1]]],", "\"processed\":[[\"j#0\",[]],");
        TraceValidator.Verdict v = validate(withEvent(12, e12));
        assertEquals(TraceValidator.Outcome.REJECTED, v.outcome(), v.report());
        assertEquals(12, v.unexplainedEvent());
        assertTrue(v.report().contains("processed (the operators' processed records after the restore)"), v.report());
    }

    @Test
    void aSnapshotOtherThanTheSpecsIsCaughtAtTheStepThatTookIt() throws IOException {
        // Event 7 completes j's alignment: its snapshot holds s1@0, which it processed at event 5.
        String e7 = good.get(7).replace("\"snapshot\":[[{\"src\":\"s1#0\",\"off\":0},1]]", "\"snapshot\":[]");
        TraceValidator.Verdict v = validate(withEvent(7, e7));
        assertEquals(TraceValidator.Outcome.REJECTED, v.outcome(), v.report());
        assertEquals(7, v.unexplainedEvent());
        assertTrue(v.report().contains("snapshot (the snapshot of the operator's processed records taken in this step)"),
                v.report());
    }

    @Test
    void persistingChannelStateInAnAlignedCheckpointIsCaught() throws IOException {
        String e5 = good.get(5).replace("\"persisted\":false", "\"persisted\":true");
        TraceValidator.Verdict v = validate(withEvent(5, e5));
        assertEquals(TraceValidator.Outcome.REJECTED, v.outcome(), v.report());
        assertEquals(5, v.unexplainedEvent());
        assertTrue(v.report().contains("persisted (whether the record was persisted as channel state"), v.report());
    }

    @Test
    void anEventNamingNoActionIsCaught() throws IOException {
        TraceValidator.Verdict v = validate(withEvent(2, "{\"event\":\"TriggerCheckpoints\",\"checkpoint\":1}"));
        assertEquals(TraceValidator.Outcome.REJECTED, v.outcome(), v.report());
        assertEquals(2, v.unexplainedEvent());
        assertTrue(v.report().contains("no action of the specification is TriggerCheckpoints(1)"), v.report());
    }

    @Test
    void aFileThatIsNoTraceIsAnErrorNamingTheLine() throws IOException {
        TraceValidator.Verdict v = validate(withEvent(3, "{\"event\":"));
        assertEquals(TraceValidator.Outcome.ERROR, v.outcome(), v.report());
        assertTrue(v.report().contains("t.ndjson:4: not JSON"), v.report());
    }

    // ---------------------------------------------------------------- Robustness

    @Test
    void aFoldedUnexplainedTupleIsStillRead() {
        // TLC folds a long value over lines; this is the shape of its output for a multi-field mismatch.
        java.util.regex.Matcher m = TraceValidator.unexplained(List.of(
                "Error: Deadlock reached.",
                "<<\"TRACE-UNEXPLAINED\", 10, \"CompleteCheckpoint\", TRUE, TRUE,",
                "  {\"offsets\", \"processed\",",
                "   \"channelState\"}>>"));
        assertTrue(m != null, "the folded tuple is found");
        assertEquals("10", m.group(1));
        assertEquals("CompleteCheckpoint", m.group(2));
        assertTrue(m.group(5).contains("channelState") && m.group(5).contains("offsets"), m.group(5));
    }

    @Test
    void aMismatchInSeveralFieldsIsRejectedNamingEachField() throws IOException {
        // Event 10 completes checkpoint 1: wrong offsets, processed records and channel state at once.
        String e10 = good.get(10).replace("\"offsets\":[[\"s1#0\",1],", "\"offsets\":[[\"s1#0\",0],")
                .replace("{\"src\":\"s1#0\",\"off\":0},1]", "{\"src\":\"s1#0\",\"off\":0},2]");
        TraceValidator.Verdict v = validate(withEvent(10, e10));
        assertEquals(TraceValidator.Outcome.REJECTED, v.outcome(), v.report());
        assertEquals(10, v.unexplainedEvent());
        assertTrue(v.report().contains("offsets (the checkpoint's source offsets)"), v.report());
        assertTrue(v.report().contains("processed (the checkpoint's operator snapshots"), v.report());
    }

    @Test
    void aTraceWithoutItsFirstEventIsRejectedNamingTheFirstUnexplainedEvent() throws IOException {
        // Without event 1 (s1 emits s1@0), s1's barrier carries offset 1 where the spec has 0.
        TraceValidator.Verdict v = validate(withEvent(1, null));
        assertEquals(TraceValidator.Outcome.REJECTED, v.outcome(), v.report());
        assertEquals(2, v.unexplainedEvent(), v.report());
        assertTrue(v.report().contains("event 2 of 14 (line 3 of t.ndjson)"), v.report());
    }

    @Test
    void twoTracesWithOneNameInTwoFoldersGetTwoLogs() throws IOException {
        TraceValidator validator = Tlc.validator(dir.resolve("logs"));
        Path a = dir.resolve("a").resolve("t.ndjson");
        Path b = dir.resolve("b").resolve("t.ndjson");
        assertTrue(!validator.logOf(a).equals(validator.logOf(b)), validator.logOf(a).toString());
        assertEquals(validator.logOf(a), validator.logOf(dir.resolve("a/../a/t.ndjson")));
    }

    @Test
    void aTraceAboveTheSizeLimitIsRefusedUpFront() throws IOException {
        Path big = dir.resolve("big.ndjson");
        List<String> lines = new ArrayList<>(good);
        String filler = "x".repeat(1000);
        while (lines.size() * 1000L < TraceValidator.MAX_TRACE_BYTES + 10_000) {
            lines.add("{\"event\":\"TriggerCheckpoint\",\"checkpoint\":1,\"pad\":\"" + filler + "\"}");
        }
        Files.write(big, lines, StandardCharsets.UTF_8);
        TraceValidator.Verdict v = Tlc.validator(dir.resolve("logs")).validate(big);
        assertEquals(TraceValidator.Outcome.ERROR, v.outcome(), v.report());
        assertTrue(v.report().startsWith("refused: the trace has "), v.report());
        assertEquals(null, v.log(), "refused before TLC runs: no log");
    }
}
