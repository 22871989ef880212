package dev.consistentcut.replay;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.modelcheck.TlcCommand;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What the replay's tests share: TLC's state graph of a model of spec/, dumped once per test
 * class, and a run of {@link SpecReplay} with its output. Called from one test thread at a time.
 */
final class ReplayHarness {

    private ReplayHarness() {
    }

    /** The output of one {@link SpecReplay#run}. */
    record Run(int exit, String out, String err) {
    }

    static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = SpecReplay.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /**
     * TLC's state graph ({@code -dump dot,actionlabels}) of {@code spec/<family>/<module>_<purpose>.cfg},
     * without its SYMMETRY line (the replay needs every concrete state), written into {@code dir}.
     */
    static Path dump(Path dir, String family, String module, String purpose)
            throws IOException, InterruptedException, URISyntaxException {
        Path spec = Path.of(System.getProperty("user.dir")).resolve("../spec").normalize();
        Path cfg = dir.resolve(purpose + ".cfg");
        List<String> lines = Files.readAllLines(spec.resolve(family).resolve(module + "_" + purpose + ".cfg")).stream()
                .filter(l -> !l.startsWith("SYMMETRY")).toList();
        Files.write(cfg, lines);
        Path jar = Path.of(tlc2.TLC.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path log = dir.resolve(purpose + ".tlc.log");
        Process p = TlcCommand.of(jar).specRoot(spec).workers(1).metadir(dir.resolve("meta-" + purpose)).config(cfg.toString())
                .option("-dump", "dot,actionlabels", dir.resolve(purpose).toString()).module(module)
                .processBuilder(spec).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        assertTrue(p.waitFor(100, TimeUnit.SECONDS), "TLC did not finish");
        assertEquals(0, p.exitValue(), Files.readString(log));
        return dir.resolve(purpose + ".dot");
    }
}
