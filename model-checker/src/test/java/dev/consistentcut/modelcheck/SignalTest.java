package dev.consistentcut.modelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLC dies with the runner: SIGTERM to the runner while its TLC runs (a counter to 10^8, minutes),
 * and its shutdown hook ends TLC. Without the hook the TLC child survives its parent (tried: the
 * broken twin of this case, the hook's registration removed).
 */
class SignalTest {

    @Test
    void aKilledRunnerLeavesNoTlcBehind(@TempDir Path dir) throws IOException, InterruptedException {
        Runner r = new Runner(dir);
        Files.writeString(r.spec.resolve("Counter_Slow.cfg"), "CONSTANT Max = 100000000\nSPECIFICATION Spec\nCHECK_DEADLOCK FALSE\n");
        Files.writeString(r.spec.resolve("slow.tsv"), "Slow\tCounter\tCounter_Slow.cfg\tpass\tfull\tcounts for minutes\n");
        ProcessBuilder pb = new ProcessBuilder(TlcCommand.thisJava(), "-cp", System.getProperty("java.class.path"),
                "-Dmodel-check.root=" + dir, Main.class.getName(), "--model", "Slow")
                .redirectErrorStream(true).redirectOutput(dir.resolve("runner.log").toFile());
        pb.environment().putAll(r.env);
        pb.environment().put("MODEL_CHECK_MANIFEST", r.spec.resolve("slow.tsv").toString());
        Process runner = pb.start();
        List<ProcessHandle> tlc = List.of();
        for (int i = 0; i < 600 && tlc.isEmpty(); i++) {
            tlc = runner.descendants().filter(h -> h.info().commandLine().orElse("").contains("tlc2.TLC")).toList();
            Thread.sleep(100);
        }
        assertFalse(tlc.isEmpty(), "TLC never started: " + Files.readString(dir.resolve("runner.log")));
        runner.destroy(); // SIGTERM
        assertTrue(runner.waitFor(60, TimeUnit.SECONDS), "the runner did not end");
        assertEquals(143, runner.exitValue());
        for (ProcessHandle h : tlc) {
            try {
                h.onExit().get(60, TimeUnit.SECONDS); // a bound for a hang, not a measure: TLC ends at once on SIGTERM
            } catch (ExecutionException | TimeoutException e) {
                throw new AssertionError("TLC (pid " + h.pid() + ") outlived the runner", e);
            }
        }
        assertTrue(Files.readString(dir.resolve("runner.log")).contains("model-check.sh: interrupted; TLC stopped"),
                Files.readString(dir.resolve("runner.log")));
    }
}
