package dev.consistentcut.modelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runner's verdicts can fail: on the fixtures' manifest every expectation is right and the run
 * passes; on models-wrong.tsv every expectation is wrong and every row fails, one at a time and two
 * at a time alike. The --json document says the same, row by row.
 */
class VerdictsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void rightExpectationsPassInTheDefaultRun(@TempDir Path dir) throws IOException {
        Runner r = new Runner(dir);
        Runner.Outcome o = r.run("--json");
        assertEquals(0, o.exit(), o.all());
        // The default run runs one TLC per core (at most 4): it is what the test command runs.
        int cores = Runtime.getRuntime().availableProcessors();
        if (cores > 1) {
            assertTrue(o.err().contains("Running the models " + Math.min(cores, 4) + " at a time"), o.err());
        }
        assertTrue(o.err().contains("All 5 models did what the manifest says."), o.err());
        checkDocument(JSON.readTree(o.out()), true, 5);
    }

    @Test
    void wrongExpectationsFailEveryRowOneOrTwoAtATime(@TempDir Path dir) throws IOException {
        Runner r = new Runner(dir).with("MODEL_CHECK_MANIFEST", dir.resolve("spec/models-wrong.tsv").toString());
        long rows = Files.readAllLines(dir.resolve("spec/models-wrong.tsv")).stream()
                .filter(l -> !l.isBlank() && !l.startsWith("#")).count();
        Runner.Outcome one = r.run("--workers", "1", "--jobs", "1", "--json");
        assertEquals(1, one.exit(), one.all());
        List<String> csv = r.csv();
        assertEquals(rows, csv.stream().filter(l -> l.contains(",FAILED,")).count(), String.join("\n", csv));
        checkDocument(JSON.readTree(one.out()), false, (int) rows);
        assertTrue(one.err().contains("NOT AS EXPECTED: WrongPass WrongInvName"), one.err());

        // --jobs 2: the same verdicts, states and depths in the same order (only the seconds differ),
        // on three of the models (a pass, a violation and an error expected otherwise).
        List<String> three = List.of("WrongPass", "WrongInv", "WrongUndefined");
        Runner.Outcome two = r.run("--workers", "1", "--jobs", "2", "--model", three.get(0), "--model", three.get(1),
                "--model", three.get(2));
        assertEquals(1, two.exit(), two.all());
        assertTrue(two.out().contains("Running the models 2 at a time"), two.out());
        assertEquals(withoutSeconds(csv.stream().filter(l -> three.contains(l.substring(0, l.indexOf(',')))).toList()),
                withoutSeconds(r.csv()));
    }

    private static List<String> withoutSeconds(List<String> csv) {
        return csv.stream().map(l -> l.substring(0, l.lastIndexOf(','))).toList();
    }

    /** The document is complete and every row is as {@code want}. */
    private static void checkDocument(JsonNode doc, boolean want, int n) {
        assertEquals("model-check.sh", doc.get("tool").asText());
        assertEquals(n, doc.get("models_run").asInt());
        assertEquals(want, doc.get("all_as_expected").asBoolean());
        assertEquals(want ? 0 : n, doc.get("not_as_expected").asInt());
        assertTrue(doc.get("results_csv").isTextual());
        JsonNode rows = doc.get("models");
        assertEquals(n, rows.size());
        for (JsonNode row : rows) {
            for (String k : List.of("model", "module", "config", "tier", "expected", "actual", "as_expected", "tlc_exit_code",
                    "states", "depth", "seconds", "violated", "log", "picture", "description")) {
                assertTrue(row.has(k), row + ": no " + k);
            }
            assertEquals(want, row.get("as_expected").asBoolean(), row.toString());
            assertEquals(want, row.get("expected").asText().equals(row.get("actual").asText()), row.toString());
            if (row.get("actual").asText().equals("pass")) {
                assertTrue(row.get("violated").isNull() && row.get("picture").isNull(), row.toString());
            }
            if (want) {
                assertTrue(row.get("states").isIntegralNumber() && row.get("states").asLong() > 0, row.toString());
                assertTrue(Files.isRegularFile(Path.of(row.get("log").asText())), row.toString());
            }
        }
    }

    @Test
    void aViolationIsNamedAndItsLogShown(@TempDir Path dir) {
        Runner r = new Runner(dir).with("MODEL_CHECK_MANIFEST", dir.resolve("spec/models-wrong.tsv").toString());
        Runner.Outcome o = r.run("--model", "WrongInvName", "--fail-fast");
        assertEquals(1, o.exit(), o.all());
        assertTrue(o.out().contains("-> inv:BelowTwoInv, "), o.out());
        assertTrue(o.out().contains("--- TLC output of WrongInvName from its first error"), o.out());
        assertTrue(o.out().contains("      | Error: Invariant BelowTwoInv is violated"), o.out());
        assertTrue(o.out().contains("(--fail-fast: the remaining models are not run)"), o.out());
        assertNotEquals(0, r.csv().size());
    }
}
