package dev.consistentcut.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads back the figures the chart needs from a {@code results.csv} that {@link Report#csv}
 * wrote, so that the chart can be redrawn without measuring again ({@code ./benchmark.sh
 * --chart-only}). Columns are found by the header's names, so added columns do no harm.
 * Stateless.
 */
public final class ResultsCsv {

    /** The chart's figures of one engine and scenario; NaN where the CSV field is empty. */
    public record Row(String engine, Scenario scenario, double durationP50Ms, double persistedBytesP50) {

        public static Row of(Summary s) {
            return new Row(s.engine(), s.scenario(), s.durationP50Ms(), s.persistedBytesP50());
        }
    }

    /** A file that is there but is not a results.csv: the message names the file and line. */
    public static final class FormatException extends IOException {

        private static final long serialVersionUID = 1L;

        FormatException(String message) {
            super(message);
        }
    }

    private ResultsCsv() {
    }

    /**
     * The rows of {@code file}, in file order.
     *
     * @throws NoSuchFileException if there is no such file
     * @throws FormatException naming the file and line if it is empty, lacks a needed column or a
     *     row does not parse
     */
    public static List<Row> read(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file);
        if (lines.isEmpty() || lines.get(0).isBlank()) {
            throw new FormatException(file + ": empty, expected results.csv's header (engine,backpressure,...)");
        }
        List<String> header = JmhCsv.fields(lines.get(0));
        int engine = column(header, "engine", file);
        int backpressure = column(header, "backpressure", file);
        int skew = column(header, "skew", file);
        int mode = column(header, "mode", file);
        int duration = column(header, "duration_p50_ms", file);
        int persisted = column(header, "persisted_bytes_p50", file);
        List<Row> out = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++) {
            if (lines.get(i).isBlank()) {
                continue;
            }
            String where = file + " line " + (i + 1) + ": ";
            List<String> f = JmhCsv.fields(lines.get(i));
            if (f.size() != header.size()) {
                throw new FormatException(where + f.size() + " fields, the header has " + header.size());
            }
            String e = f.get(engine);
            if (!List.of(ScenarioRun.REFERENCE, ScenarioRun.REFERENCE_OBJECTS, ScenarioRun.FLINK, ScenarioRun.FLINK_REUSE).contains(e)) {
                throw new FormatException(where + "engine '" + e + "', expected reference, reference-objects, flink or flink-reuse");
            }
            Scenario s = new Scenario(backpressure(f.get(backpressure), where), skew(f.get(skew), where), mode(f.get(mode), where));
            out.add(new Row(e, s, number(f.get(duration), "duration_p50_ms", where),
                    number(f.get(persisted), "persisted_bytes_p50", where)));
        }
        if (out.isEmpty()) {
            throw new FormatException(file + ": a header and no rows");
        }
        return out;
    }

    private static int column(List<String> header, String name, Path file) throws FormatException {
        int i = header.indexOf(name);
        if (i < 0) {
            throw new FormatException(file + ": no column '" + name + "' in the header (not a results.csv?)");
        }
        return i;
    }

    private static Backpressure backpressure(String label, String where) throws FormatException {
        for (Backpressure b : Backpressure.values()) {
            if (b.label().equals(label)) {
                return b;
            }
        }
        throw new FormatException(where + "backpressure '" + label + "', expected none, light or heavy");
    }

    private static Mode mode(String label, String where) throws FormatException {
        for (Mode m : Mode.values()) {
            if (m.label().equals(label)) {
                return m;
            }
        }
        throw new FormatException(where + "mode '" + label + "', expected none, aligned, unaligned or alternating");
    }

    private static boolean skew(String value, String where) throws FormatException {
        return switch (value) {
            case "on" -> true;
            case "off" -> false;
            default -> throw new FormatException(where + "skew '" + value + "', expected on or off");
        };
    }

    /** Report writes NaN as an empty field. */
    private static double number(String value, String column, String where) throws FormatException {
        if (value.isEmpty()) {
            return Double.NaN;
        }
        try {
            return Double.parseDouble(value);
        } catch (NumberFormatException e) {
            throw new FormatException(where + column + " is not a number: '" + value + "'");
        }
    }
}
