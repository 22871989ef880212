package dev.consistentcut.modelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Pinned counts: a changed count fails, --update-counts rewrites it (and nothing else), and the
 * run then passes again. Shared pins ('=BASE'): a twin is held to its base's pin, and the manifest
 * is refused when a shared pin cannot hold.
 */
class CountsTest {

    @Test
    void aChangedCountFailsAndUpdateCountsRewritesOnlyIt(@TempDir Path dir) throws IOException {
        Runner r = new Runner(dir);
        String pinned = r.column("CounterPass", 7);
        List<String> before = Files.readAllLines(r.spec.resolve("models.tsv"));
        r.edit("CounterPass", 7, Long.toString(Long.parseLong(pinned) + 1));

        Runner.Outcome changed = r.run("--model", "CounterPass");
        assertEquals(1, changed.exit(), changed.all());
        assertTrue(changed.out().contains("COUNTS CHANGED: " + pinned + " states"), changed.out());

        Runner.Outcome update = r.run("--model", "CounterPass", "--update-counts");
        assertEquals(0, update.exit(), update.all());
        assertTrue(update.out().contains("--update-counts: wrote the counts of 1 model(s) into "), update.out());
        assertEquals(before, Files.readAllLines(r.spec.resolve("models.tsv")), "only the count was rewritten, back to its pin");

        Runner.Outcome again = r.run("--model", "CounterPass");
        assertEquals(0, again.exit(), again.all());
        assertTrue(again.out().contains("counts as pinned"), again.out());
    }

    /** The spec mutation harness's mode: a changed count is not a verdict; only pass or the named violation is. */
    @Test
    void ignoreCountsLetsAChangedCountPassAndRefusesToUpdateOrBeStrict(@TempDir Path dir) {
        Runner r = new Runner(dir);
        r.edit("CounterPass", 7, Long.toString(Long.parseLong(r.column("CounterPass", 7)) + 1));

        Runner.Outcome ignored = r.run("--model", "CounterPass", "--ignore-counts");
        assertEquals(0, ignored.exit(), ignored.all());
        assertTrue(ignored.out().contains("counts not compared (--ignore-counts)"), ignored.out());

        for (String contradiction : List.of("--update-counts", "--strict-counts")) {
            Runner.Outcome refused = r.run("--model", "CounterPass", "--ignore-counts", contradiction);
            assertEquals(2, refused.exit(), refused.all());
            assertTrue(refused.err().contains("--ignore-counts contradicts " + contradiction), refused.err());
        }
    }

    @Test
    void strictCountsFailsAnUnpinnedModel(@TempDir Path dir) {
        Runner r = new Runner(dir);
        r.edit("CounterDeadlock", 7, "");
        r.edit("CounterDeadlock", 8, "");
        Runner.Outcome o = r.run("--model", "CounterDeadlock", "--strict-counts");
        assertEquals(1, o.exit(), o.all());
        assertTrue(o.out().contains("counts not pinned (--strict-counts)"), o.out());
    }

    /** A manifest whose shared pin cannot hold is refused before any TLC runs. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("brokenSharedPins")
    void aSharedPinThatCannotHoldIsRefused(String label, List<String[]> edits, String text, @TempDir Path dir) {
        Runner r = new Runner(dir);
        for (String[] e : edits) {
            r.edit(e[0], Integer.parseInt(e[1]), e[2]);
        }
        Runner.Outcome o = r.run("--list");
        assertEquals(3, o.exit(), o.all());
        assertTrue(o.err().contains(text), o.err());
    }

    static Stream<Arguments> brokenSharedPins() {
        return Stream.of(
                Arguments.of("a twin with a pin of its own",
                        List.<String[]>of(edit("CounterPassTwin", 7, "4"), edit("CounterPassTwin", 8, "4")),
                        "models 'CounterPass' and 'CounterPassTwin' explore one state space"),
                Arguments.of("a twin sharing a failing model's pin", List.<String[]>of(edit("CounterPassTwin", 7, "=CounterInv")),
                        "only models that must pass"),
                Arguments.of("a twin sharing the pin of another state space",
                        List.<String[]>of(edit("CounterPassTwin", 3, "Counter_Deadlock.cfg"), edit("CounterPassTwin", 4, "pass"),
                                edit("CounterDeadlock", 4, "pass")),
                        "do not explore one state space"),
                Arguments.of("a twin sharing an unknown model's pin", List.<String[]>of(edit("CounterPassTwin", 7, "=NoSuchModel")),
                        "which the manifest does not list"));
    }

    private static String[] edit(String model, int column, String value) {
        return new String[] {model, Integer.toString(column), value};
    }

    @Test
    void aStaleBasePinFailsItsTwinAndUpdateCountsWritesTheBaseOnly(@TempDir Path dir) {
        Runner r = new Runner(dir);
        r.edit("CounterPass", 7, "5");
        Runner.Outcome stale = r.run("--model", "CounterPassTwin");
        assertEquals(1, stale.exit(), stale.all());
        assertTrue(stale.out().contains("pinned with CounterPass: 5, depth 4"), stale.out());

        Runner.Outcome update = r.run("--model", "CounterPass", "--model", "CounterPassTwin", "--update-counts");
        assertEquals(0, update.exit(), update.all());
        assertTrue(update.out().contains("wrote the counts of 1 model(s)"), update.out());
        assertEquals("4", r.column("CounterPass", 7));
        assertEquals("=CounterPass", r.column("CounterPassTwin", 7));
        assertEquals("", r.column("CounterPassTwin", 8));
    }
}
