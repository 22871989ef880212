package dev.consistentcut.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The replay's reading of alternating and sink states, on hand-written states of TLC's text for
 * a line s1 -> sink (no TLC run): overtaking barriers, the switch's variables, the sink's
 * transactions, and the steps told apart by what they changed where TLC labels an edge with the
 * enclosing definition ({@code Progress}, {@code Next}, {@code FailAndRestoreAlternating}).
 */
@Timeout(10)
class ReplayMappingTest {

    /** A state of the line s1 -> sink; {@code extra} adds or overrides variables (later lines win). */
    private static SpecState state(String... extra) {
        StringBuilder b = new StringBuilder("""
                /\\ offset = (s1 :> 0)
                /\\ chan = (<<s1, "sink">> :> <<>>)
                /\\ processed = ("sink" :> << >>)
                /\\ handling = ("sink" :> 0)
                /\\ arrived = ("sink" :> {})
                /\\ current = (s1 :> 0 @@ "sink" :> 0)
                /\\ endedSources = {}
                /\\ endedInputs = ("sink" :> {})
                /\\ ckpt = <<"none">>
                /\\ latest = 0
                /\\ failures = 0
                /\\ snapOffset = <<(s1 :> 0)>>
                /\\ snapProcessed = <<("sink" :> << >>)>>
                /\\ snapChan = <<(<<s1, "sink">> :> <<>>)>>
                /\\ txnOpen = << >>
                """);
        for (String e : extra) {
            b.append("/\\ ").append(e).append('\n');
        }
        return SpecState.parse(b.toString().stripTrailing(), new HashMap<>());
    }

    private static final String SINK_VARS_EMPTY = "txnPending = (\"sink\" :> {})";

    @Test
    void anOvertakingBarrierOfAlternatingModeIsU() {
        SpecState s = state("chan = (<<s1, \"sink\">> :> <<[ckpt |-> 1, aligned |-> FALSE], [src |-> s1, off |-> 0],"
                + " [ckpt |-> 2, aligned |-> TRUE]>>)");
        assertEquals("U1 s1.0 B2", s.get("chan[s1->sink]"));
        assertEquals("B1", state("chan = (<<s1, \"sink\">> :> <<[ckpt |-> 1]>>)").get("chan[s1->sink]"),
                "the other protocols' barriers have no alignment field");
    }

    @Test
    void theSwitchsVariablesAreReadWhereTheModelHasThem() {
        assertFalse(state().components.containsKey("unalignedAt[sink]"));
        SpecState s = state("unalignedAt = (\"sink\" :> 1)", "switchedAt = <<{\"sink\"}>>");
        assertEquals("1", s.get("unalignedAt[sink]"));
        assertEquals("sink", s.get("switchedAt[1]"));
    }

    @Test
    void aSinksTransactionsAreComparedOpenAndPendingUntilItEnds() {
        String sinkVars = "txnOpen = (\"sink\" :> ([src |-> s1, off |-> 0] :> 1))";
        String pending = "txnPending = (\"sink\" :> {1})";
        String txn = "txn = (\"sink\" :> <<([src |-> s1, off |-> 1] :> 1)>>)";
        String committed = "committed = ([src |-> s1, off |-> 2] :> 1)";
        SpecState s = state(sinkVars, pending, txn, committed);
        assertEquals(java.util.List.of("sink"), s.sinks);
        assertEquals("s1.0x1", s.get("txnOpen[sink]"));
        assertEquals("1", s.get("txnPending[sink]"));
        assertEquals("s1.0x1 s1.1x1", s.get("uncommitted[sink]"), "the open transaction and the pending one");
        assertEquals("s1.2x1", s.get("committed"));
        SpecState ended = state(sinkVars, pending, txn, committed, "endedInputs = (\"sink\" :> {<<s1, \"sink\">>})");
        assertFalse(ended.components.containsKey("txnOpen[sink]"), "an ended sink's last transaction is told apart");
        assertFalse(ended.components.containsKey("txnPending[sink]"));
        assertEquals("s1.0x1 s1.1x1", ended.get("uncommitted[sink]"));
        assertTrue(state(SINK_VARS_EMPTY).sinks.isEmpty(), "no sink without the option (txnOpen has no domain)");
    }

    @Test
    void anEnclosingLabelIsReadFromWhatTheStepChanged() {
        SpecState before = state();
        assertEquals("TriggerCheckpoint", SpecStep.action(before, state("ckpt = <<\"pending\">>"), "Next"));
        assertEquals("EmitRecord", SpecStep.action(before, state("offset = (s1 :> 1)"), "Progress"));
        assertEquals("SendEndOfPartition", SpecStep.action(before, state("endedSources = {s1}"), "Progress"));
        SpecState pending = state("ckpt = <<\"pending\">>");
        assertEquals("CompleteCheckpoint", SpecStep.action(pending, state("ckpt = <<\"completed\">>"), "Progress"));
        assertEquals("AbortCheckpoint", SpecStep.action(pending, state("ckpt = <<\"aborted\">>"), "Next"));
        assertEquals("FailAndRestore", SpecStep.action(before, before, "FailAndRestoreAlternating"));
        assertEquals("ReceiveBarrier", SpecStep.action(before, before, "ReceiveBarrier"), "a plain label is the action");
        assertThrows(IllegalArgumentException.class, () -> SpecStep.action(before, before, "Progress"));
    }

    @Test
    void aTimeoutIsTheTaskThatJoinedTheSwitchedTasks() {
        SpecState a = state("unalignedAt = (\"sink\" :> 0)", "switchedAt = <<{}>>");
        SpecState b = state("unalignedAt = (\"sink\" :> 1)", "switchedAt = <<{\"sink\"}>>");
        assertEquals("TimeoutAlignment(sink, 1)", SpecStep.infer(a, b, "TimeoutAlignment").toString());
    }

    @Test
    void aPrioritizedBarrierIsTheChannelItMovedIn() {
        SpecState a = state("unalignedAt = (\"sink\" :> 1)", "switchedAt = <<{\"sink\"}>>",
                "chan = (<<s1, \"sink\">> :> <<[src |-> s1, off |-> 0], [ckpt |-> 1, aligned |-> TRUE]>>)");
        SpecState b = state("unalignedAt = (\"sink\" :> 1)", "switchedAt = <<{\"sink\"}>>",
                "chan = (<<s1, \"sink\">> :> <<[ckpt |-> 1, aligned |-> FALSE], [src |-> s1, off |-> 0]>>)");
        assertEquals("PrioritizeBarrier(sink, s1->sink)", SpecStep.infer(a, b, "PrioritizeBarrier").toString());
    }

    @Test
    void aNotificationIsOfTheNewestCompletedCheckpoint() {
        String open = "txnOpen = (\"sink\" :> << >>)";
        String txn = "txn = (\"sink\" :> <<([src |-> s1, off |-> 0] :> 1)>>)";
        SpecState a = state(open, txn, "txnPending = (\"sink\" :> {1})", "committed = << >>",
                "ckpt = <<\"completed\">>", "latest = 1");
        SpecState b = state(open, txn, "txnPending = (\"sink\" :> {})", "committed = ([src |-> s1, off |-> 0] :> 1)",
                "ckpt = <<\"completed\">>", "latest = 1");
        assertEquals("NotifyCheckpointComplete", SpecStep.action(a, b, "Progress"));
        assertEquals("NotifyCheckpointComplete(sink, 1)", SpecStep.infer(a, b, "NotifyCheckpointComplete").toString());
    }
}
