package dev.consistentcut.picture;

import dev.consistentcut.text.TlaValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.picture.Diagram.Kind;
import dev.consistentcut.picture.Diagram.Row;
import dev.consistentcut.picture.Diagram.Token;
import dev.consistentcut.trace.TraceTool;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The counterexample pictures: TLC values and traces read right, drawn, bad input named. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PictureToolTest {

    /** The shape of a TLC error trace of spec/ (abridged: 3 states, 4 variables). */
    private static final String LOG = """
            Starting... (2026-12-01 07:08:32)
            Error: Invariant NoDoubleCountInv is violated.
            Error: The behavior up to this point is:
            State 1: <Initial predicate>
            /\\ offset = (s1 :> 0 @@ s2 :> 0)
            /\\ chan = (<<s1, "join">> :> <<>> @@ <<s2, "join">> :> <<>> @@ <<"join", "sink">> :> <<>>)
            /\\ arrived = [join |-> {}, sink |-> {}]
            /\\ processed = [join |-> << >>, sink |-> << >>]

            State 2: <EmitRecord line 189, col 5 to line 193, col 60 of module Dataflow>
            /\\ offset = (s1 :> 1 @@ s2 :> 0)
            /\\ chan = ( <<s1, "join">> :> <<[src |-> s1, off |-> 0], [ckpt |-> 1]>> @@
              <<s2, "join">> :> <<>> @@
              <<"join", "sink">> :> <<>> )
            /\\ arrived = [join |-> {}, sink |-> {}]
            /\\ processed = [join |-> << >>, sink |-> << >>]

            State 3: <ReceiveBarrier line 42, col 5 to line 48, col 77 of module AlignedCheckpoint>
            /\\ offset = (s1 :> 1 @@ s2 :> 0)
            /\\ chan = ( <<s1, "join">> :> <<[src |-> s1, off |-> 0]>> @@
              <<s2, "join">> :> <<>> @@
              <<"join", "sink">> :> <<>> )
            /\\ arrived = [join |-> {<<s1, "join">>}, sink |-> {}]
            /\\ processed = [ join |-> ([src |-> s1, off |-> 0] :> 2),
              sink |-> << >> ]

            2 states generated, 2 distinct states found, 0 states left on queue.
            """;

    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return PictureTool.run(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void parsesTlcValues() {
        TlaValue v = TlaValue.parse("[ join |-> ([src |-> s1, off |-> 0] :> 2), sink |-> << >> ]");
        assertEquals("{s1.0×2}", Compact.of(v.field("join")));
        // The rescaled restore's diamond: a record's copy on one route is named by it.
        assertEquals("s1.0/left", Compact.of(TlaValue.parse("[src |-> s1, off |-> 0, via |-> left]")));
        assertEquals("[src: s1, off: 0, to: left]", Compact.of(TlaValue.parse("[src |-> s1, off |-> 0, to |-> left]")));
        assertEquals(new TlaValue.Tuple(List.of()), v.field("sink"));
        TlaValue f = TlaValue.parse("(<<s1, \"join\">> :> <<[ckpt |-> 1]>> @@ <<\"join\", \"sink\">> :> <<>>)");
        assertEquals(2, f.entries().size());
        assertEquals("s1→join", Compact.of(f.entries().keySet().iterator().next()));
        assertEquals("{1, \"a\", TRUE}", TlaValue.parse("{1, \"a\", TRUE}").toString());
        // Alternating barriers are barriers too, an overtaking one marked.
        TlaValue aligned = TlaValue.parse("[ckpt |-> 1, aligned |-> TRUE]");
        TlaValue overtaking = TlaValue.parse("[ckpt |-> 2, aligned |-> FALSE]");
        assertTrue(Compact.isBarrier(aligned));
        assertTrue(Compact.isBarrier(overtaking));
        assertEquals("B1", Compact.of(aligned));
        assertEquals("B2u", Compact.of(overtaking));
        assertEquals(List.of(new Token("s1.0", false), new Token("B2u", true)),
                Compact.tokens(TlaValue.parse("<<[ckpt |-> 2, aligned |-> FALSE], [src |-> s1, off |-> 0]>>")));
    }

    @Test
    void readsTheTraceAndDrawsLanesBlockedInputsAndTheVerdict() {
        TlcTrace t = TlcTrace.parse(LOG.lines().toList());
        assertEquals("NoDoubleCountInv", t.violatedName());
        assertEquals(3, t.states().size());
        Diagram d = TlcDiagrams.of(t, "M", "about", List.of("Invariant NoDoubleCountInv is violated"));
        assertEquals(List.of("s1→join", "s2→join", "join→sink"), d.lanes());
        Row emit = d.rows().get(1);
        assertEquals("s1", emit.actor());
        // head (the record, read next) drawn last, i.e. rightmost; the barrier behind it
        assertEquals(List.of(new Token("B1", true), new Token("s1.0", false)), emit.cells().get(0));
        assertTrue(emit.notes().contains("offset[s1]: 0 → 1"), emit.notes().toString());
        Row receive = d.rows().get(2);
        assertEquals(List.of(true, false, false), receive.blocked());
        assertEquals(Kind.VIOLATION, receive.kind());
        assertTrue(receive.notes().stream().anyMatch(n -> n.contains("{s1.0×2}")), receive.notes().toString());
        String svg = SvgDiagram.render(d);
        assertTrue(svg.startsWith("<?xml") && svg.contains("<svg") && svg.trim().endsWith("</svg>"));
        assertTrue(svg.contains("Invariant NoDoubleCountInv is violated"));
        assertTrue(svg.contains("url(#hatch)"), "the blocked input is drawn hatched");
    }

    @Test
    void commandLineWritesThePictureAndNamesBadInput() throws Exception {
        Path log = Files.writeString(dir.resolve("m.log"), LOG);
        assertEquals(0, run("tlc", log.toString(), dir.resolve("m.svg").toString(), "--title", "Model"));
        assertTrue(Files.readString(dir.resolve("m.svg")).contains("Model"));
        Path noTrace = Files.writeString(dir.resolve("ok.log"), "Model checking completed. No error has been found.\n");
        assertEquals(3, run("tlc", noTrace.toString(), dir.resolve("x.svg").toString()));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("no error trace"), err.toString(StandardCharsets.UTF_8));
        assertFalse(Files.exists(dir.resolve("x.svg")));
        assertEquals(2, run("tlc", log.toString()));
        assertEquals(2, run("tlc", log.toString(), "o.svg", "--colour", "red"));
        assertEquals(3, run("tlc", dir.resolve("missing.log").toString(), "o.svg"));
    }

    @Test
    void drawsAnEngineTraceWithItsFirstUnexplainedEventMarked() throws Exception {
        Path trace = dir.resolve("run.ndjson");
        PrintStream quiet = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        assertEquals(0, TraceTool.run(new String[] {"record", "--out", trace.toString(), "--job", "join", "--records", "3",
                "--checkpoints", "2", "--failures", "1", "--seed", "3"}, quiet, quiet));
        Diagram d = EngineTraceDiagrams.of(trace, 5, List.of("because"));
        assertEquals(5, d.rows().size(), "drawn up to the unexplained event");
        assertEquals(Kind.UNEXPLAINED, d.rows().get(4).kind());
        assertTrue(d.verdict().get(0).contains("event 5"), d.verdict().toString());
        Path svg = dir.resolve("run.svg");
        assertEquals(0, TraceTool.run(new String[] {"render", trace.toString(), svg.toString(), "--unexplained", "5", "--why", "because"},
                quiet, quiet));
        assertTrue(Files.readString(svg).contains("NO ACTION OF THE SPEC EXPLAINS THIS EVENT"));
        Diagram whole = EngineTraceDiagrams.of(trace, 0, List.of());
        assertEquals(Files.readAllLines(trace).size() - 1, whole.rows().size());
        assertTrue(whole.rows().stream().anyMatch(r -> r.kind() == Kind.COMPLETE));
        assertTrue(whole.rows().stream().anyMatch(r -> r.kind() == Kind.FAIL));
        assertTrue(whole.verdict().isEmpty());
    }

    /** A rescale trace's events are not messages on channels: refused by name, not a NullPointerException. */
    @Test
    void aTraceWithoutChannelsIsNotDrawnAndSaysWhy() throws Exception {
        Path trace = dir.resolve("rescale.ndjson");
        Files.writeString(trace, "{\"trace\":\"consistent-cut-trace\",\"version\":1,\"mode\":\"rescale\"}\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> EngineTraceDiagrams.of(trace, 1, List.of()));
        assertEquals("a rescale trace has no channels to draw; only a protocol's trace is drawn", e.getMessage());
    }
}
