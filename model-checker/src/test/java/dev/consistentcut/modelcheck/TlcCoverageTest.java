package dev.consistentcut.modelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLC's coverage section, parsed from a recorded excerpt of a real run (the last section counts;
 * invariants are not actions), and added up over models: a branch any model evaluated is reached,
 * one with only zero counts is not.
 */
class TlcCoverageTest {

    static List<String> excerpt() throws IOException {
        try (InputStream in = TlcCoverageTest.class.getResourceAsStream("tlc-coverage-excerpt.log")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }

    @Test
    void theLastSectionsActionsAreReadWithTheirCountsAndSplits() throws IOException {
        List<TlcCoverage.Action> actions = TlcCoverage.parse(excerpt());
        assertEquals(List.of("Init", "ProcessRecord", "ReceiveBarrier", "NotifyCheckpointAborted"),
                actions.stream().map(TlcCoverage.Action::name).toList(), "the earlier section's InjectBarrier and the invariant are left out");

        TlcCoverage.Action process = actions.get(1);
        assertEquals(1581, process.distinct());
        assertEquals(11612, process.generated());
        assertNull(process.split());
        assertEquals(new TlcCoverage.Span("AlignedCheckpoint", 59, 1, 59, 19), process.definition());
        TlcCoverage.Evaluated costed = process.evaluated().stream()
                .filter(e -> e.span().equals(new TlcCoverage.Span("DataflowChannels", 12, 23, 12, 88))).findFirst().orElseThrow();
        assertEquals(11612, costed.count(), "the count, not the cost after it");
        assertEquals(2, costed.nesting());

        TlcCoverage.Action receive = actions.get(2);
        assertEquals("ReceiveBarrier [96:5-111:71]", receive.label());
        assertEquals(16, receive.evaluated().size());
        assertEquals(0, actions.get(3).generated());
        assertEquals(0, actions.get(3).evaluated().get(1).count());
    }

    @Test
    void aBranchIsReachedWhenSomeModelEvaluatedItAndOnlyProtocolModulesCount(@TempDir Path spec) throws IOException {
        for (String m : List.of("AlignedCheckpoint", "DataflowCoordinator", "MCAlignedCheckpoint")) {
            Files.writeString(spec.resolve(m + ".tla"), "---- MODULE " + m + " ----\n====\n");
        }
        List<TlcCoverage.Action> actions = TlcCoverage.parse(excerpt());
        TlcCoverage.Action notify = actions.get(3);
        List<TlcCoverage.Evaluated> some = notify.evaluated().stream()
                .map(e -> e.span().line() == 121 ? new TlcCoverage.Evaluated(e.span(), e.nesting(), 7) : e).toList();
        TlcCoverage.Action taken = new TlcCoverage.Action(notify.name(), notify.definition(), null, 3, 7, some);

        CoverageTally tally = new CoverageTally(SpecSources.of(spec));
        tally.add("A", actions);
        tally.add("B", List.of(taken));

        List<CoverageTally.Branch> branches = tally.branches();
        assertTrue(branches.stream().allMatch(b -> b.module().equals("AlignedCheckpoint") || b.module().equals("DataflowCoordinator")),
                "modules not under the spec directory are not protocol modules");
        CoverageTally.Branch reached = branch(branches, "NotifyCheckpointAborted", "121:8-121:43");
        assertEquals(List.of("B"), List.copyOf(reached.models()));
        assertEquals(7, reached.count());
        assertTrue(!branch(branches, "NotifyCheckpointAborted", "122:8-122:45").reached());
        assertEquals("NotifyCheckpointAborted (AlignedCheckpoint)",
                branches.stream().filter(b -> b.module().equals("DataflowCoordinator")).findFirst().orElseThrow().action());
        assertEquals(java.util.Map.of("B", 3L), tally.distinctStates(notify.key()));
    }

    /**
     * TLC lists an IF arm it never evaluated conjunct by conjunct, one it evaluated as one line: a
     * zero inside an arm some model evaluated whole is no branch of its own; a zero nested under
     * its evaluated parent in the same listing is.
     */
    @Test
    void aZeroInsideARangeAModelEvaluatedWholeIsLeftOut(@TempDir Path spec) throws IOException {
        Files.writeString(spec.resolve("P.tla"), "---- MODULE P ----\n====\n");
        TlcCoverage.Span def = new TlcCoverage.Span("P", 1, 1, 1, 4);
        TlcCoverage.Span arm = new TlcCoverage.Span("P", 3, 15, 4, 40);
        TlcCoverage.Span conjunct = new TlcCoverage.Span("P", 3, 18, 3, 40);
        TlcCoverage.Span otherArm = new TlcCoverage.Span("P", 5, 15, 5, 40);
        CoverageTally tally = new CoverageTally(SpecSources.of(spec));
        tally.add("Off", List.of(new TlcCoverage.Action("Fail", def, null, 0, 0, List.of(new TlcCoverage.Evaluated(conjunct, 0, 0)))));
        tally.add("On", List.of(new TlcCoverage.Action("Fail", def, null, 2, 5,
                List.of(new TlcCoverage.Evaluated(arm, 0, 3), new TlcCoverage.Evaluated(otherArm, 0, 0)))));
        assertEquals(List.of("3:15-4:40", "5:15-5:40"), tally.branches().stream().map(CoverageTally.Branch::location).toList());

        CoverageTally nested = new CoverageTally(SpecSources.of(spec));
        nested.add("Off", List.of(new TlcCoverage.Action("Fail", def, null, 0, 0, List.of(new TlcCoverage.Evaluated(conjunct, 0, 0)))));
        nested.add("On", List.of(new TlcCoverage.Action("Fail", def, null, 2, 5,
                List.of(new TlcCoverage.Evaluated(arm, 0, 3), new TlcCoverage.Evaluated(conjunct, 1, 0)))));
        assertEquals(List.of("3:15-4:40", "3:18-3:40"), nested.branches().stream().map(CoverageTally.Branch::location).toList());
        assertTrue(!nested.branches().get(1).reached());
    }

    /**
     * TLC lists a call it evaluated as one line, and the conjuncts of the operator's body (from
     * another call site, say) with 0: a top-level conjunct of an operator whose call some model
     * evaluated whole in the action is no branch of its own. Not so for a body under an IF: which
     * arm the call took is not known.
     */
    @Test
    void aConjunctOfAnOperatorWhoseCallWasEvaluatedWholeIsLeftOut(@TempDir Path spec) throws IOException {
        Files.writeString(spec.resolve("P.tla"), """
                ---- MODULE P ----
                Pre(x) ==
                    LET y == x
                    IN
                    /\\ a' = y
                    /\\ b' = y
                Act == Pre(1)
                Alt(x) ==
                    IF x THEN
                        /\\ a' = 1
                    ELSE
                        /\\ a' = 2
                Act2 == Alt(TRUE)
                ====
                """);
        TlcCoverage.Span act = new TlcCoverage.Span("P", 7, 1, 7, 4);
        TlcCoverage.Span call = new TlcCoverage.Span("P", 7, 8, 7, 13);
        TlcCoverage.Span first = new TlcCoverage.Span("P", 5, 8, 5, 13);
        TlcCoverage.Span second = new TlcCoverage.Span("P", 6, 8, 6, 13);
        CoverageTally tally = new CoverageTally(SpecSources.of(spec));
        tally.add("Off", List.of(new TlcCoverage.Action("Act", act, null, 0, 0,
                List.of(new TlcCoverage.Evaluated(first, 0, 0), new TlcCoverage.Evaluated(second, 0, 0)))));
        tally.add("On", List.of(new TlcCoverage.Action("Act", act, null, 2, 5, List.of(new TlcCoverage.Evaluated(call, 0, 3)))));
        assertEquals(List.of("7:8-7:13"), tally.branches().stream().map(CoverageTally.Branch::location).toList());

        TlcCoverage.Span act2 = new TlcCoverage.Span("P", 13, 1, 13, 4);
        TlcCoverage.Span call2 = new TlcCoverage.Span("P", 13, 9, 13, 17);
        TlcCoverage.Span elseArm = new TlcCoverage.Span("P", 12, 12, 12, 17);
        CoverageTally arms = new CoverageTally(SpecSources.of(spec));
        arms.add("Off", List.of(new TlcCoverage.Action("Act2", act2, null, 0, 0, List.of(new TlcCoverage.Evaluated(elseArm, 0, 0)))));
        arms.add("On", List.of(new TlcCoverage.Action("Act2", act2, null, 2, 5, List.of(new TlcCoverage.Evaluated(call2, 0, 3)))));
        assertEquals(List.of("12:12-12:17", "13:9-13:17"), arms.branches().stream().map(CoverageTally.Branch::location).toList(),
                "an arm of an IF stays");
    }

    /**
     * A conjunction evaluated whole (an IF arm) whose item calls an operator: the operator's
     * conjuncts count as reached, and so do those of an operator it calls in turn (here a
     * one-line body). The other arm's zero stays.
     */
    @Test
    void theConjunctsOfOperatorsCalledInAWholeArmAreLeftOutTransitively(@TempDir Path spec) throws IOException {
        Files.writeString(spec.resolve("Q.tla"), """
                ---- MODULE Q ----
                Ack(t) == a' = t
                Store(t) ==
                    /\\ b' = t
                    /\\ Ack(t)
                Act == IF TRUE
                         THEN /\\ c' = 1
                              /\\ Store(1)
                         ELSE c' = 2
                ====
                """);
        TlcCoverage.Span act = new TlcCoverage.Span("Q", 6, 1, 6, 3);
        CoverageTally tally = new CoverageTally(SpecSources.of(spec));
        tally.add("Off", List.of(new TlcCoverage.Action("Act", act, null, 0, 0, List.of(
                new TlcCoverage.Evaluated(new TlcCoverage.Span("Q", 4, 8, 4, 13), 0, 0),
                new TlcCoverage.Evaluated(new TlcCoverage.Span("Q", 2, 11, 2, 16), 0, 0),
                new TlcCoverage.Evaluated(new TlcCoverage.Span("Q", 9, 15, 9, 20), 0, 0)))));
        tally.add("On", List.of(new TlcCoverage.Action("Act", act, null, 1, 1,
                List.of(new TlcCoverage.Evaluated(new TlcCoverage.Span("Q", 7, 15, 8, 25), 0, 3)))));
        assertEquals(List.of("7:15-8:25", "9:15-9:20"), tally.branches().stream().map(CoverageTally.Branch::location).toList());
    }

    private static CoverageTally.Branch branch(List<CoverageTally.Branch> all, String action, String location) {
        return all.stream().filter(b -> b.action().equals(action) && b.location().equals(location)).findFirst().orElseThrow();
    }
}
