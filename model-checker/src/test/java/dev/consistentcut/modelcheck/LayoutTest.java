package dev.consistentcut.modelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The specs in a folder per protocol family: every models.tsv under the spec directory is read,
 * a row's config is in its manifest's folder, its module and the modules it EXTENDS may be in
 * another, and --update-counts rewrites the row in the file it came from.
 */
class LayoutTest {

    @Test
    void manifestsInFoldersRunAndArePinnedWhereTheyAre(@TempDir Path dir) throws IOException {
        Runner r = new Runner(dir);
        Path base = r.spec.resolve("base");
        Path ext = r.spec.resolve("ext");
        Files.createDirectories(base);
        Files.createDirectories(ext);
        for (String f : new String[] {"Counter.tla", "Counter_Pass.cfg"}) {
            Files.move(r.spec.resolve(f), base.resolve(f));
        }
        Files.delete(r.spec.resolve("models.tsv"));
        Files.writeString(base.resolve("models.tsv"), "CounterPass\tCounter\tCounter_Pass.cfg\tpass\tquick\tthe counter\t4\t4\n");
        Files.writeString(ext.resolve("CounterAgain.tla"), "---- MODULE CounterAgain ----\nEXTENDS Counter\n====\n");
        Files.copy(base.resolve("Counter_Pass.cfg"), ext.resolve("Again.cfg"));
        Files.writeString(ext.resolve("models.tsv"), "CounterAgain\tCounterAgain\tAgain.cfg\tpass\tfull\tthe counter again\t9\t9\n"
                + "CounterElsewhere\tCounter\tAgain.cfg\tpass\tfull\tthe module of another folder\t=CounterPass\n");

        Runner.Outcome list = r.run("--list");
        assertEquals(0, list.exit(), list.all());
        assertTrue(list.out().indexOf("CounterPass") < list.out().indexOf("CounterAgain"), list.out());

        Runner.Outcome run = r.run("--model", "CounterAgain", "--update-counts");
        assertEquals(0, run.exit(), run.all());
        assertEquals("CounterAgain\tCounterAgain\tAgain.cfg\tpass\tfull\tthe counter again\t4\t4\n"
                + "CounterElsewhere\tCounter\tAgain.cfg\tpass\tfull\tthe module of another folder\t=CounterPass\n",
                Files.readString(ext.resolve("models.tsv")));
        assertEquals("CounterPass\tCounter\tCounter_Pass.cfg\tpass\tquick\tthe counter\t4\t4\n",
                Files.readString(base.resolve("models.tsv")));

        // A row's module may be in another folder (TLC finds it on the module path), and its pin
        // may be another manifest's.
        Runner.Outcome elsewhere = r.run("--model", "CounterElsewhere");
        assertEquals(0, elsewhere.exit(), elsewhere.all());
        assertTrue(elsewhere.out().contains("counts as pinned (with CounterPass)"), elsewhere.out());
    }
}
