package dev.consistentcut.picture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.picture.Diagram.Kind;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLC's report of a step that breaks an action property (a refinement) read and drawn, a lasso
 * behaviour read, and a log whose behaviour is missing or malformed refused with a reason.
 * BugSubsumeBeforeDurableRefinement.log is TLC's output for that model (spec/incremental),
 * without the lines that name files of the machine it ran on.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TlcTraceTest {

    private static final String ACTION_PROPERTY =
            "Error: Action property line 89, col 17 to line 89, col 29 of module FullSnapshotStore is violated.";

    @TempDir
    Path dir;

    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int picture(String... args) {
        return PictureTool.run(args, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private static Path fixture() throws Exception {
        return Path.of(TlcTraceTest.class.getResource("BugSubsumeBeforeDurableRefinement.log").toURI());
    }

    @Test
    void readsTheBehaviourAfterAnActionPropertyViolation() throws Exception {
        TlcTrace t = TlcTrace.read(fixture());
        assertTrue(t.actionPropertyViolated());
        assertEquals("", t.violatedName(), "TLC names the action property by its place only");
        assertEquals(new TlcTrace.Place("FullSnapshotStore", 89, 17, 89, 29), t.place().orElseThrow());
        assertEquals(7, t.states().size());
        assertEquals(0, t.loopsBackTo(), "a broken step is a finite behaviour: no lasso");
        TlcTrace.State last = t.states().get(6);
        assertEquals("SubsumeCheckpoint", last.action());
        assertEquals("<<\"subsumed\", \"acknowledged\">>", last.vars().get("ckpt").toString());
        assertEquals("RefinesFullSnapshotStoreProp", t.named("RefinesFullSnapshotStoreProp").violatedName());
        assertEquals("NoDoubleCountInv", TlcTrace.parse(List.of("Error: Invariant NoDoubleCountInv is violated.",
                "State 1: <Initial predicate>", "/\\ x = 1")).named("Other").violatedName(), "TLC's own name is kept");
    }

    @Test
    void namesTheViolatedPropertyAndMarksTheBreakingStep() throws Exception {
        TlcTrace t = TlcTrace.read(fixture()).named("RefinesFullSnapshotStoreProp");
        Diagram d = TlcDiagrams.of(t, "M", "", List.of());
        assertEquals(Kind.VIOLATION, d.rows().get(6).kind());
        assertTrue(d.rows().subList(0, 6).stream().noneMatch(r -> r.kind() == Kind.VIOLATION));

        // A spec directory of its own, so that the test does not follow edits of spec/: the module
        // TLC names, in a sub-folder as in spec/, with the property where TLC placed it.
        Path spec = dir.resolve("spec");
        Files.createDirectories(spec.resolve("incremental"));
        List<String> module = new ArrayList<>(Collections.nCopies(88, ""));
        module.add("Spec == Init /\\ [][Next]_vars");
        Files.write(spec.resolve("incremental/FullSnapshotStore.tla"), module);
        Path svg = dir.resolve("m.svg");
        assertEquals(0, picture("tlc", fixture().toString(), svg.toString(), "--property", "RefinesFullSnapshotStoreProp",
                "--spec", spec.toString()), err.toString(StandardCharsets.UTF_8));
        String drawn = Files.readString(svg);
        assertTrue(drawn.contains("Action property RefinesFullSnapshotStoreProp is violated by the step into state 7"), drawn);
        assertTrue(drawn.contains("[][Next]_vars of module FullSnapshotStore is false of that step"), drawn);
    }

    @Test
    void withoutTheSpecTheVerdictGivesTlcsPlace() {
        assertEquals("TLC: the action property at module FullSnapshotStore, line 89, col 17",
                PictureTool.quote(null, new TlcTrace.Place("FullSnapshotStore", 89, 17, 89, 29)));
    }

    @Test
    void readsALassoAfterATemporalViolation() {
        List<String> lasso = List.of("Error: Temporal properties were violated.", "Error: The following behavior constitutes a counter-example:",
                "State 1: <Initial predicate>", "/\\ x = 0", "", "State 2: <Step line 5, col 1 to line 5, col 9 of module M>",
                "/\\ x = 1", "", "State 3: <Step line 5, col 1 to line 5, col 9 of module M>", "/\\ x = 0", "",
                "State 4: Back to state 2", "", "Finished in 01s");
        TlcTrace t = TlcTrace.parse(lasso);
        assertFalse(t.actionPropertyViolated());
        assertTrue(t.place().isEmpty());
        assertEquals(3, t.states().size());
        assertEquals(2, t.loopsBackTo());
        Diagram d = TlcDiagrams.of(t.named("Live"), "M", "", List.of());
        assertTrue(d.rows().get(2).notes().contains("from here the behaviour returns to state 2 for ever"), d.rows().get(2).notes().toString());
        assertFalse(d.rows().stream().anyMatch(r -> r.kind() == Kind.VIOLATION), "no single step breaks a liveness property");
    }

    /** The broken twin of the fixture: the report without its behaviour, or with a state TLC did not write. */
    @Test
    void aMissingOrMalformedBehaviourIsRefusedWithAReason() throws Exception {
        List<String> lines = Files.readAllLines(fixture());
        int firstState = lines.indexOf("State 1: <Initial predicate>");
        List<String> absent = lines.subList(0, firstState);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TlcTrace.parse(absent));
        assertTrue(e.getMessage().contains("printed no state"), e.getMessage());

        List<String> cut = new ArrayList<>(lines.subList(0, firstState + 3));
        cut.add("/\\ refs = <<{<<0, 1>>}, {<<0");
        Path truncated = Files.write(dir.resolve("truncated.log"), cut);
        assertEquals(3, picture("tlc", truncated.toString(), dir.resolve("t.svg").toString()));
        String reason = err.toString(StandardCharsets.UTF_8);
        assertTrue(reason.startsWith("PictureTool: " + truncated + ": "), reason);
        assertFalse(Files.exists(dir.resolve("t.svg")));

        err.reset();
        Path noEquals = Files.write(dir.resolve("garbled.log"), List.of(ACTION_PROPERTY, "State 1: <Initial predicate>", "/\\ refs <<>>"));
        assertEquals(3, picture("tlc", noEquals.toString(), dir.resolve("g.svg").toString()));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("cannot read the state line 'refs <<>>'"), err.toString(StandardCharsets.UTF_8));
    }
}
