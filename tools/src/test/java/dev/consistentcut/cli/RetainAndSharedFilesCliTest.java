package dev.consistentcut.cli;

import static dev.consistentcut.cli.DurableJobTest.cli;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --retain N} on run and resume (the store keeps the newest N checkpoints and the shared
 * files they reference, nothing more), and inspect's lines for each checkpoint's private and shared
 * files with their reference counts.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class RetainAndSharedFilesCliTest {

    @TempDir
    Path tmp;

    private static DurableJobTest.Outcome run(Path dir, String retain) {
        return cli("run", "--mode", "unaligned", "--runtime", "simulation", "--records", "150", "--interval-ms", "1",
                "--capacity", "4", "--checkpoint-dir", dir.toString(), "--retain", retain);
    }

    @Test
    void theStoreKeepsTheNewestRetainCheckpointsAndInspectListsTheirFiles() throws IOException {
        for (int retain : new int[] {1, 4}) {
            Path dir = tmp.resolve("retain-" + retain);
            DurableJobTest.Outcome o = run(dir, Integer.toString(retain));
            assertEquals(0, o.code(), o.out() + o.err());
            List<String> checkpoints = names(dir, ".ckpt");
            assertEquals(retain, checkpoints.size(), checkpoints.toString());
            String inspect = cli("inspect", dir.toString()).out();
            for (String c : checkpoints) {
                assertTrue(inspect.contains(": private " + c + " ("), inspect);
            }
            List<String> shared = names(dir, ".seg");
            assertTrue(!shared.isEmpty(), "the job's tasks have state: " + names(dir, ""));
            for (String f : shared) { // every shared file on disk belongs to a retained checkpoint
                assertTrue(inspect.contains("  shared " + f + " "), f + " in " + inspect);
            }
            assertTrue(inspect.contains(retain == 1 ? "referenced by 1 checkpoint\n" : "referenced by " + retain
                    + " checkpoints\n"), inspect);
            String json = cli("inspect", dir.toString(), "--json").out();
            assertTrue(json.contains("\"sharedFiles\":[{\"file\":\"" + shared.get(0) + "\""), json);
        }
    }

    /**
     * A shared file no valid checkpoint references is listed as such: after the job finished it is
     * a leak (the crash test requires none), mid-run an orphan the next store deletes. The copy
     * stands for a store that forgot to delete a subsumed checkpoint's file.
     */
    @Test
    void inspectNamesSharedFilesNoCheckpointReferences() throws IOException {
        Path dir = tmp.resolve("job");
        assertEquals(0, run(dir, "2").code());
        String clean = cli("inspect", dir.toString(), "--json").out();
        assertTrue(clean.contains("\"unreferencedSharedFiles\":[]"), clean);

        String shared = names(dir, ".seg").get(0);
        String leaked = "shared-999999-" + shared.substring(shared.indexOf('-', "shared-".length()) + 1);
        Files.copy(dir.resolve(shared), dir.resolve(leaked));
        long bytes = Files.size(dir.resolve(leaked));
        String json = cli("inspect", dir.toString(), "--json").out();
        assertTrue(json.contains("\"unreferencedSharedFiles\":[{\"file\":\"" + leaked + "\",\"bytes\":" + bytes + "}]"),
                json);
        String text = cli("inspect", dir.toString()).out();
        assertTrue(text.contains("shared file " + leaked + " (" + bytes
                + " bytes): referenced by no valid checkpoint (a leak: the job has finished)"), text);

        Files.delete(dir.resolve("FINISHED")); // mid-run, the same file is an orphan the next store deletes
        assertTrue(cli("inspect", dir.toString()).out().contains(leaked + " (" + bytes
                + " bytes): referenced by no valid checkpoint (an interrupted checkpoint's orphan"), leaked);
    }

    @Test
    void retainIsCheckedAndMayDifferPerResume() throws IOException {
        DurableJobTest.Outcome bad = run(tmp.resolve("bad"), "0");
        assertEquals(2, bad.code(), bad.err());
        assertTrue(bad.err().contains("--retain must be between 1 and 1000, got 0"), bad.err());

        Path dir = tmp.resolve("job");
        assertEquals(0, run(dir, "3").code());
        Files.delete(dir.resolve("FINISHED")); // as if the process had died after its last checkpoint
        DurableJobTest.Outcome resumed = cli("resume", dir.toString(), "--retain", "2");
        assertEquals(0, resumed.code(), resumed.out() + resumed.err());
        assertEquals(2, names(dir, ".ckpt").size(), names(dir, "").toString());
    }

    private static List<String> names(Path dir, String suffix) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(suffix)).sorted().toList();
        }
    }
}
