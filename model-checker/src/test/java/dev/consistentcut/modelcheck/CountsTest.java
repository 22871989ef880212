package dev.consistentcut.modelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

    @Test
    void strictCountsFailsAnUnpinnedModel(@TempDir Path dir) {
        Runner r = new Runner(dir);
        r.edit("CounterDeadlock", 7, "");
        r.edit("CounterDeadlock", 8, "");
        Runner.Outcome o = r.run("--model", "CounterDeadlock", "--strict-counts");
        assertEquals(1, o.exit(), o.all());
        assertTrue(o.out().contains("counts not pinned (--strict-counts)"), o.out());
    }

    @Test
    void aTwinWithAPinOfItsOwnIsRefused(@TempDir Path dir) {
        Runner r = new Runner(dir);
        r.edit("CounterPassTwin", 7, "4");
        r.edit("CounterPassTwin", 8, "4");
        refused(r, "models 'CounterPass' and 'CounterPassTwin' explore one state space");
    }

    @Test
    void aTwinSharingAFailingModelsPinIsRefused(@TempDir Path dir) {
        Runner r = new Runner(dir);
        r.edit("CounterPassTwin", 7, "=CounterInv");
        refused(r, "only models that must pass");
    }

    @Test
    void aTwinSharingThePinOfAnotherStateSpaceIsRefused(@TempDir Path dir) {
        Runner r = new Runner(dir);
        r.edit("CounterPassTwin", 3, "Counter_Deadlock.cfg");
        r.edit("CounterPassTwin", 4, "pass");
        r.edit("CounterDeadlock", 4, "pass");
        refused(r, "do not explore one state space");
    }

    @Test
    void aTwinSharingAnUnknownModelsPinIsRefused(@TempDir Path dir) {
        Runner r = new Runner(dir);
        r.edit("CounterPassTwin", 7, "=NoSuchModel");
        refused(r, "which the manifest does not list");
    }

    private static void refused(Runner r, String text) {
        Runner.Outcome o = r.run("--list");
        assertEquals(3, o.exit(), o.all());
        assertTrue(o.err().contains(text), o.err());
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
