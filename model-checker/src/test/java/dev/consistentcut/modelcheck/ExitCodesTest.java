package dev.consistentcut.modelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Bad usage exits 2 and setup errors exit 3, each naming what is wrong; --help exits 0. No TLC runs here. */
class ExitCodesTest {

    @TempDir
    Path dir;

    @Test
    void anUnknownFlagIsNamedAndTheHelpFollows() {
        Runner.Outcome o = new Runner(dir).run("--no-such-flag");
        assertEquals(2, o.exit());
        assertTrue(o.err().startsWith("model-check.sh: unknown option '--no-such-flag'\n\nUsage: ./model-check.sh"), o.err());
    }

    @Test
    void helpExitsZero() {
        Runner.Outcome o = new Runner(dir).run("--help");
        assertEquals(0, o.exit());
        assertTrue(o.out().contains("Exit codes: 0 every model (trace) as expected"), o.out());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--model does not apply to --trace|--trace t.ndjson --model CounterPass",
        "--simulate does not apply to --trace|--trace t.ndjson --simulate",
        "--depth must be a whole number from 1 to 100000, got '99999999999999999999'|--depth 99999999999999999999",
        "--workers must be a whole number from 1 to 256, got '0'|--workers 0",
        "--traces does not apply to --quick|--quick --traces 5",
        "--model and --quick exclude each other|--quick --model CounterPass",
        "--jobs and --fail-fast exclude each other|--jobs 2 --fail-fast",
        "--expect-reject goes with --trace|--expect-reject",
        "--require-end goes with --trace|--require-end",
        "--coverage FILE goes with --trace|--coverage out.tsv",
        "--coverage needs a file name|--trace t.ndjson --coverage",
        "--coverage does not apply to --distributed|--distributed --model CounterPass --coverage",
        "--distributed runs one model|--distributed",
        "--port needs a port number|--port 70000",
        "unknown model 'NoSuchModel'; known models: CounterPass|--model NoSuchModel",
    })
    void badUsageExitsTwo(String text, String args) {
        Runner.Outcome o = new Runner(dir).run(args.split(" "));
        assertEquals(2, o.exit(), o.all());
        assertTrue(o.err().contains(text), o.err());
    }

    @Test
    void aTlcJarThatIsNotAJarIsASetupError() throws IOException {
        Files.writeString(dir.resolve("fake.jar"), "not a jar at all\n");
        setupError("is not TLC (not a jar: 17 bytes starting 'not a jar at all?'", "TLA2TOOLS_JAR", dir.resolve("fake.jar"));
    }

    @Test
    void anotherJarIsASetupError() throws IOException {
        Files.write(dir.resolve("other.jar"), "PK\003\004some other archive".getBytes());
        setupError("is not TLC (a jar or zip of ", "TLA2TOOLS_JAR", dir.resolve("other.jar"));
    }

    @Test
    void aMissingTlcJarIsASetupError() {
        setupError("TLA2TOOLS_JAR=" + dir.resolve("none.jar") + ": no such file", "TLA2TOOLS_JAR", dir.resolve("none.jar"));
    }

    @Test
    void aMissingJavaIsASetupError() {
        setupError("JAVA=" + dir.resolve("no-java") + ": no such executable", "JAVA", dir.resolve("no-java"));
    }

    @Test
    void aMissingManifestIsASetupError() {
        setupError("no manifest at " + dir.resolve("none.tsv"), "MODEL_CHECK_MANIFEST", dir.resolve("none.tsv"));
    }

    @Test
    void aMissingTraceIsASetupError() {
        Runner.Outcome o = new Runner(dir).run("--trace", dir.resolve("none.ndjson").toString());
        assertEquals(3, o.exit(), o.all());
        assertTrue(o.err().contains("--trace " + dir.resolve("none.ndjson") + ": no such file"), o.err());
    }

    private void setupError(String text, String variable, Path value) {
        Runner.Outcome o = new Runner(dir).with(variable, value.toString()).run("--model", "CounterPass");
        assertEquals(3, o.exit(), o.all());
        assertTrue(o.err().contains(text), o.err());
    }
}
