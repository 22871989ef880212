package dev.consistentcut.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Reads the CSV that JMH writes with {@code -rf csv}, for the report's microbenchmark table. Stateless. */
public final class JmhCsv {

    private JmhCsv() {
    }

    /**
     * The results in {@code file}, benchmark names without their package.
     *
     * @throws IllegalArgumentException naming the file and line if a line is not a JMH result line
     */
    public static List<Report.MicroResult> read(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file);
        if (lines.isEmpty()) {
            throw new IllegalArgumentException(file + ": empty, expected JMH's CSV header");
        }
        List<String> header = fields(lines.get(0));
        int name = column(header, "Benchmark", file);
        int score = column(header, "Score", file);
        int error = column(header, "Score Error (99.9%)", file);
        int unit = column(header, "Unit", file);
        List<Report.MicroResult> out = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++) {
            if (lines.get(i).isBlank()) {
                continue;
            }
            List<String> f = fields(lines.get(i));
            if (f.size() != header.size()) {
                throw new IllegalArgumentException(file + " line " + (i + 1) + ": " + f.size() + " fields, the header has " + header.size());
            }
            List<String> params = new ArrayList<>();
            for (int c = 0; c < header.size(); c++) {
                if (header.get(c).startsWith("Param: ") && !f.get(c).isEmpty()) {
                    params.add(header.get(c).substring("Param: ".length()) + "=" + f.get(c));
                }
            }
            try {
                out.add(new Report.MicroResult(shortName(f.get(name)), String.join(", ", params),
                        Double.parseDouble(f.get(score)), parseOrNaN(f.get(error)), f.get(unit)));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(file + " line " + (i + 1) + ": score is not a number: " + e.getMessage(), e);
            }
        }
        return out;
    }

    private static int column(List<String> header, String name, Path file) {
        int i = header.indexOf(name);
        if (i < 0) {
            throw new IllegalArgumentException(file + ": no column '" + name + "' in JMH's CSV header " + header);
        }
        return i;
    }

    private static double parseOrNaN(String s) {
        return s.isEmpty() || s.equals("NaN") ? Double.NaN : Double.parseDouble(s);
    }

    static String shortName(String benchmark) {
        String[] parts = benchmark.split("\\.");
        return parts.length >= 2 ? parts[parts.length - 2] + "." + parts[parts.length - 1] : benchmark;
    }

    /** Splits one CSV line: fields separated by commas, optionally in double quotes (JMH quotes every text field). */
    static List<String> fields(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char ch = line.charAt(i);
            if (quoted) {
                if (ch == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    field.append('"');
                    i++;
                } else if (ch == '"') {
                    quoted = false;
                } else {
                    field.append(ch);
                }
            } else if (ch == '"') {
                quoted = true;
            } else if (ch == ',') {
                out.add(field.toString());
                field.setLength(0);
            } else {
                field.append(ch);
            }
        }
        out.add(field.toString());
        return out;
    }
}
