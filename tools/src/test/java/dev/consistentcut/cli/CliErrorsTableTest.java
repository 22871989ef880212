package dev.consistentcut.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The case table of docs/cli-errors.md is what the commands do: each row's command, run with its
 * placeholders ({@code DIR}, {@code OUT}, {@code FILE}) resolved to paths in a fresh directory and
 * its setup (by case name, {@link #SETUPS}) done first, exits with the row's code and prints its
 * message ({@code ...} matching any text); and none prints an internal error or a stack trace. So
 * the table cannot drift from the code, and a new case is a row plus at most a setup.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CliErrorsTableTest {

    static final Path DOC = Path.of("..", "docs", "cli-errors.md");

    /** One row of the table. */
    record Row(String name, String command, int exit, String message) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** The paths a case's placeholders stand for, and what its setup holds until the command has run. */
    static final class Places {
        final Path dir;
        final Path out;
        final Path file;
        Plugs plugs = Plugs.REAL;
        final List<AutoCloseable> held = new ArrayList<>();

        Places(Path root) {
            dir = root.resolve("dir");
            out = root.resolve("out");
            file = root.resolve("file.txt");
        }

        String resolve(String text) {
            Matcher m = Pattern.compile("\\b(DIR|OUT|FILE)\\b").matcher(text);
            StringBuilder b = new StringBuilder();
            while (m.find()) {
                Path p = switch (m.group(1)) {
                    case "DIR" -> dir;
                    case "OUT" -> out;
                    default -> file;
                };
                m.appendReplacement(b, Matcher.quoteReplacement(p.toString()));
            }
            return m.appendTail(b).toString();
        }

        /** Holds {@code dir}'s lock file {@code name} as process 4242 would, until the command has run. */
        void holdLock(Path dir, String name) throws IOException {
            Files.createDirectories(dir);
            FileChannel ch = FileChannel.open(dir.resolve(name), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            held.add(ch);
            held.add(ch.lock());
            ch.write(java.nio.ByteBuffer.wrap("pid 4242\n".getBytes(StandardCharsets.US_ASCII)));
        }

        /** The CLI as a user calls it (for a setup), which must succeed. */
        void ok(String... args) {
            DurableJobTest.Outcome o = DurableJobTest.cli(args);
            assertEquals(0, o.code(), "setup: " + String.join(" ", args) + "\n" + o.out() + o.err());
        }
    }

    interface Setup {
        void prepare(Places p) throws Exception;
    }

    /** What a case needs that its command does not show, by case name; a few lines each. */
    static final Map<String, Setup> SETUPS = Map.ofEntries(
            Map.entry("checkpoint-dir-in-use", p -> {
                p.ok("run", "--mode", "aligned", "--runtime", "simulation", "--records", "50", "--checkpoint-dir",
                        p.dir.toString());
                Files.delete(p.dir.resolve(JobDirectory.FINISHED));
                p.holdLock(p.dir, JobDirectory.LOCK);
            }),
            Map.entry("finished-marker-damaged", p -> {
                p.ok("run", "--mode", "aligned", "--runtime", "simulation", "--records", "50", "--checkpoint-dir",
                        p.dir.toString());
                Files.writeString(p.dir.resolve(JobDirectory.FINISHED), "garbage\n");
            }),
            Map.entry("output-not-empty", p -> Files.writeString(Files.createDirectories(p.out).resolve("x"), "")),
            Map.entry("output-in-use", p -> p.holdLock(p.out, JobOutput.LOCK)),
            Map.entry("output-disk-full", p -> {
                assumeTrue(Files.isWritable(Path.of("/dev/full")), "needs /dev/full (Linux)");
                p.plugs = new Plugs(Plugs.REAL.modes(), OutputDirectoryCliTest::fullDisk);
            }),
            Map.entry("output-read-only", p -> {
                assumeFalse("root".equals(System.getProperty("user.name")), "root writes into a directory of mode 555");
                Files.createDirectories(p.out, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("r-xr-xr-x")));
            }),
            Map.entry("output-deleted-before-resume", p -> {
                p.ok("run", "--mode", "aligned", "--runtime", "simulation", "--input", p.file.toString(), "--output",
                        p.out.toString(), "--checkpoint-dir", p.dir.toString());
                Files.delete(p.dir.resolve(JobDirectory.FINISHED));
                deleteTree(p.out);
            }),
            Map.entry("trace-record-into-directory", p -> Files.createDirectories(p.dir)),
            Map.entry("validate-without-tlc", p -> Files.createDirectories(p.dir)),
            Map.entry("to-tla-unwritable", CliErrorsTableTest::recordTrace),
            Map.entry("verify-output-at-least-once-duplicates", p -> copyOnePart(p, false)),
            Map.entry("verify-output-at-least-once-missing", p -> copyOnePart(p, true)),
            Map.entry("render-exists", CliErrorsTableTest::recordTrace),
            Map.entry("render-unexplained-negative", CliErrorsTableTest::recordTrace),
            Map.entry("render-too-big", p -> {
                try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(
                        Files.createDirectories(p.dir).resolve("big.ndjson").toFile(), "rw")) {
                    f.setLength(52_000_000); // sparse: nothing is written
                }
            }),
            Map.entry("to-tla-not-utf8", p -> {
                byte[] json = "{\"trace\":\"x\"}\n".getBytes(StandardCharsets.UTF_8);
                byte[] all = java.util.Arrays.copyOf(json, json.length + 3);
                all[json.length] = (byte) 0xff;
                all[json.length + 1] = (byte) 0xfe;
                all[json.length + 2] = '\n';
                Files.write(Files.createDirectories(p.dir).resolve("garbage.bin"), all);
            }),
            Map.entry("input-byte-order-mark", p -> Files.write(p.file, "\uFEFF7 1\n3 1\n".getBytes(StandardCharsets.UTF_8))),
            Map.entry("input-line-too-long", p -> Files.writeString(p.file, "1 1\n1 " + "2".repeat(100_000) + "\n")),
            Map.entry("input-binary", p -> Files.write(p.file, new byte[] {'1', ' ', '2', '\n', 0, 0, 0, 0})),
            Map.entry("to-tla-exists", p -> {
                recordTrace(p);
                Files.writeString(Files.createDirectories(p.out).resolve("TraceData.tla"), "my module");
            }));

    private static void recordTrace(Places p) throws IOException {
        Files.createDirectories(p.dir);
        p.ok("trace", "record", "--out", p.dir.resolve("t.ndjson").toString(), "--records", "2");
    }

    /**
     * A file job's output on FILE in OUT with one part file copied: every record of it committed
     * twice; with {@code lessItsFirst}, the copy lacks its first record and the original is gone.
     */
    private static void copyOnePart(Places p, boolean lessItsFirst) throws IOException {
        p.ok("run", "--mode", "aligned", "--runtime", "simulation", "--input", p.file.toString(), "--output",
                p.out.toString());
        Path part = CliEdgesTest.parts(p.out).get(0);
        Path copy = Files.copy(part, p.out.resolve(part.getFileName().toString().replace(".txt", "-copy.txt")));
        if (lessItsFirst) {
            List<String> lines = Files.readAllLines(copy);
            Files.write(copy, lines.subList(1, lines.size()));
            Files.delete(part);
        }
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            for (Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(f);
            }
        }
    }

    @TempDir
    Path tmp;

    private Places places;

    @AfterEach
    void release() throws Exception {
        if (places != null) {
            for (int i = places.held.size() - 1; i >= 0; i--) {
                places.held.get(i).close();
            }
            // a read-only output would outlive the temporary directory's cleanup
            if (Files.exists(places.out)) {
                Files.setPosixFilePermissions(places.out, PosixFilePermissions.fromString("rwxr-xr-x"));
            }
        }
    }

    static List<Row> rows() throws IOException {
        List<Row> rows = new ArrayList<>();
        boolean inTable = false;
        for (String line : Files.readAllLines(DOC, StandardCharsets.UTF_8)) {
            if (line.equals("| case | command | exit | message |")) {
                inTable = true;
                continue;
            }
            if (!inTable || line.startsWith("| ---")) {
                continue;
            }
            if (!line.startsWith("|")) {
                break;
            }
            String[] cells = line.substring(1, line.length() - 1).split("\\|", -1);
            assertEquals(4, cells.length, "four cells: " + line);
            rows.add(new Row(cells[0].strip(), unquote(cells[1]), Integer.parseInt(cells[2].strip()), unquote(cells[3])));
        }
        return rows;
    }

    private static String unquote(String cell) {
        String c = cell.strip();
        return c.startsWith("`") && c.endsWith("`") ? c.substring(1, c.length() - 1) : c;
    }

    @Test
    void theTableHasRowsWithUniqueNamesAndEverySetupHasARow() throws IOException {
        List<Row> rows = rows();
        assertTrue(rows.size() >= 15, "the table is read: " + rows);
        Set<String> names = new HashSet<>();
        for (Row r : rows) {
            assertTrue(names.add(r.name()), "case names are unique: " + r.name());
            assertTrue(r.exit() >= 0 && r.exit() <= 3, r.name() + ": exit codes are 0 to 3");
        }
        assertTrue(names.containsAll(SETUPS.keySet()), "a setup without a row: " + SETUPS.keySet());
    }

    /**
     * The check's broken twins: a row whose exit code or message the command does not give must
     * fail it, or a table that drifted from the code would still pass.
     */
    @Test
    void aRowThatDisagreesWithTheCommandFailsTheCheck() {
        assertThrows(AssertionError.class, () -> eachCaseExitsAndSaysWhatTheTableSays(
                new Row("unknown-command", "nonsense", 1, "error: unknown command 'nonsense'")));
        assertThrows(AssertionError.class, () -> eachCaseExitsAndSaysWhatTheTableSays(
                new Row("unknown-command", "nonsense", 2, "error: no such message")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void eachCaseExitsAndSaysWhatTheTableSays(Row row) throws Exception {
        places = new Places(Files.createDirectories(tmp.resolve("case")));
        StringBuilder input = new StringBuilder("# key value\n");
        for (int i = 0; i < 20; i++) {
            input.append(i % 5).append(' ').append(i).append('\n');
        }
        Files.writeString(places.file, input);
        SETUPS.getOrDefault(row.name(), p -> { }).prepare(places);
        String[] args = places.resolve(row.command()).split("\\s+");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            code = Main.run(args, o, e, places.plugs);
        }
        String printed = err.toString(StandardCharsets.UTF_8) + out.toString(StandardCharsets.UTF_8);
        assertEquals(row.exit(), code, printed);
        String expected = places.resolve(row.message());
        String pattern = Stream.of(expected.split("\\.\\.\\.", -1)).map(Pattern::quote)
                .collect(java.util.stream.Collectors.joining(".*?"));
        assertTrue(Pattern.compile(pattern, Pattern.DOTALL).matcher(printed).find(),
                "'" + expected + "' in:\n" + printed);
        assertFalse(printed.contains("internal error"), printed);
        assertFalse(printed.contains("\tat "), "no stack trace: " + printed);
    }
}
