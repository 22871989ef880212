package dev.consistentcut.modelcheck;

import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * The run's outputs: the lines per model, the table, results.csv (model, tier, expected, result,
 * verdict, exit_code, states, depth, seconds) and, with --json, one JSON document. Not thread-safe:
 * the main thread reports the models one by one in the manifest's order.
 */
final class Report {

    static final String CSV_HEADER = "model,tier,expected,result,verdict,exit_code,states,depth,seconds";
    private static final String ROW = "%-30s %-46s %-46s %12s %6s %7s  %s";

    private final Setup setup;
    private final PrintStream out;
    private final Path csv;
    private final List<String> rows = new ArrayList<>();
    private final ObjectMapper mapper = new ObjectMapper();
    /** Indented, "name": value as the bash script wrote it. */
    private final DefaultPrettyPrinter pretty = new DefaultPrettyPrinter().withSeparators(
            Separators.createDefaultInstance().withObjectFieldValueSpacing(Separators.Spacing.AFTER));
    private final ArrayNode jsonRows = mapper.createArrayNode();
    final List<String> failed = new ArrayList<>();

    Report(Setup setup, PrintStream out) {
        this.setup = setup;
        this.out = out;
        this.csv = setup.outDir().resolve("results.csv");
        write(CSV_HEADER + "\n", false);
    }

    Path csv() {
        return csv;
    }

    private void write(String text, boolean append) {
        try {
            Files.createDirectories(csv.getParent());
            if (append) {
                Files.writeString(csv, text, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
            } else {
                Files.writeString(csv, text, StandardCharsets.UTF_8);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One row of results.csv. */
    void csvRow(Model m, Result r) {
        write(String.join(",", m.name(), m.tier(), m.expect(), r.result(), verdict(r), Integer.toString(r.exit()), r.states(),
                r.depth(), Long.toString(r.seconds())) + "\n", true);
    }

    static String verdict(Result r) {
        return r.ok() ? "ok" : "FAILED";
    }

    /** A model's result: its lines, its table row, its CSV row and its JSON object. */
    void model(Model m, Result r, String countsNote) {
        if (r.pictureNote() != null) {
            out.println("      (" + r.pictureNote() + ")");
        }
        jsonRows.add(json(m, r));
        String verdict = verdict(r) + (countsNote == null ? "" : " (" + countsNote + ")");
        if (!r.ok()) {
            failed.add(m.name());
        }
        out.println("      -> " + r.result() + ", " + r.states() + " states, depth " + r.depth() + ", " + r.seconds() + "s: " + verdict);
        if (r.picture() != null) {
            out.println("      picture: " + setup.shown(Path.of(r.picture())));
        }
        rows.add(String.format(ROW, m.name(), m.expect(), r.result(), r.states(), r.depth(), r.seconds(), verdict));
        csvRow(m, r);
    }

    private ObjectNode json(Model m, Result r) {
        String violated = null;
        if (r.result().startsWith("inv:") || r.result().startsWith("prop:")) {
            violated = r.result().substring(r.result().indexOf(':') + 1);
        } else if (r.result().equals("deadlock")) {
            violated = "deadlock";
        }
        if ("?".equals(violated)) {
            violated = null;
        }
        ObjectNode o = mapper.createObjectNode();
        o.put("model", m.name());
        o.put("module", m.module());
        o.put("config", m.config());
        o.put("tier", m.tier());
        o.put("expected", m.expect());
        o.put("actual", r.result());
        o.put("as_expected", r.ok());
        o.put("tlc_exit_code", r.exit());
        number(o, "states", r.states());
        number(o, "depth", r.depth());
        o.put("seconds", r.seconds());
        o.put("violated", violated);
        o.put("log", setup.outDir().resolve("logs/" + m.name() + ".log").toString());
        o.put("picture", r.picture());
        o.put("description", m.description().isEmpty() ? null : m.description());
        return o;
    }

    private static void number(ObjectNode o, String field, String value) {
        if (value.matches("[0-9]+")) {
            o.put(field, Long.parseLong(value));
        } else {
            o.putNull(field);
        }
    }

    /** The table after the run. */
    void table() {
        out.println();
        out.println(String.format(ROW, "MODEL", "EXPECTED", "RESULT", "STATES", "DEPTH", "SECONDS", "VERDICT"));
        rows.forEach(out::println);
        out.println();
        out.println("Results: " + csv);
    }

    /** The whole result as one JSON document. */
    String jsonDocument(Path tlcJar, int workers, int modelsRun) {
        ObjectNode doc = mapper.createObjectNode();
        doc.put("tool", "model-check.sh");
        doc.put("tlc", tlcJar.toString());
        doc.put("workers", workers);
        doc.put("models_run", modelsRun);
        doc.put("not_as_expected", failed.size());
        doc.put("all_as_expected", failed.isEmpty());
        doc.put("results_csv", csv.toString());
        doc.set("models", jsonRows);
        try {
            return mapper.writer(pretty).writeValueAsString(doc);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
