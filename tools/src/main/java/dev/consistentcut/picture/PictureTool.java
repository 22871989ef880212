package dev.consistentcut.picture;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Command line of the counterexample pictures: a TLC error trace ({@code tlc}) or an engine trace
 * ({@code trace}) as an SVG sequence diagram. {@code model-check.sh --pictures} and
 * {@code trace render} call it.
 */
public final class PictureTool {

    static final String USAGE = """
            Usage: java -cp tools.jar dev.consistentcut.picture.PictureTool COMMAND [options]

            Commands:
              tlc LOG OUT.svg [options]     draw the error trace in a TLC log (model-check.sh's logs)
                --title TEXT                  the first line (default: the log's file name)
                --about TEXT                  one sentence under it (e.g. the model's description)
                --spec DIR --module M --config CFG --tlc JAR
                                              let TLC compute the numbers that violate the invariant
                                              (CutCount, CutTarget, ...) in the last state
                --java PATH                   java for that TLC run (default: this JVM's)
                --property NAME               the violated property, when TLC does not name it
              trace TRACE OUT.svg [options] draw an engine trace (NDJSON)
                --unexplained N               mark event N as the first one no action explains
                --why TEXT                    the validator's reason (repeatable)
              -h, --help                    this help

            Exit codes: 0 picture written; 2 bad usage; 3 the input cannot be read or the picture written.
            """;

    private PictureTool() {
    }

    public static void main(String[] args) {
        System.exit(run(args, System.out, System.err));
    }

    /** Runs one command; returns the exit code. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 0 || args[0].equals("-h") || args[0].equals("--help")) {
            (args.length == 0 ? err : out).print(USAGE);
            return args.length == 0 ? 2 : 0;
        }
        List<String> positional = new ArrayList<>();
        Map<String, List<String>> o;
        try {
            o = options(List.of(args).subList(1, args.length), positional);
            if (positional.size() != 2) {
                throw new IllegalArgumentException(args[0] + " needs an input file and OUT.svg");
            }
        } catch (IllegalArgumentException e) {
            err.println("PictureTool: " + e.getMessage() + " (see --help)");
            return 2;
        }
        Path in = Path.of(positional.get(0));
        Path svg = Path.of(positional.get(1));
        if (!Files.isRegularFile(in)) {
            err.println("PictureTool: " + in + ": no such file");
            return 3;
        }
        try {
            Diagram d = switch (args[0]) {
                case "tlc" -> tlc(in, o);
                case "trace" -> EngineTraceDiagrams.of(in, Long.parseLong(one(o, "--unexplained", "0")),
                        o.getOrDefault("--why", List.of()));
                default -> null;
            };
            if (d == null) {
                err.println("PictureTool: unknown command '" + args[0] + "' (see --help)");
                return 2;
            }
            SvgDiagram.write(d, svg);
            out.println("picture: " + svg);
            return 0;
        } catch (NumberFormatException e) {
            err.println("PictureTool: --unexplained needs a number (see --help)");
            return 2;
        } catch (IllegalArgumentException | UncheckedIOException | ClassCastException e) {
            err.println("PictureTool: " + in + ": " + e.getMessage());
            return 3;
        }
    }

    private static Diagram tlc(Path log, Map<String, List<String>> o) {
        TlcTrace trace = TlcTrace.read(log).named(one(o, "--property", ""));
        TlcTrace.State last = trace.states().get(trace.states().size() - 1);
        List<String> verdict = new ArrayList<>();
        String name = trace.violatedName();
        Path spec = o.containsKey("--spec") ? Path.of(one(o, "--spec", "")) : null;
        if (name.equals("deadlock")) {
            verdict.add("Deadlock in state " + last.number() + ": no action is enabled, and the run has not terminated");
        } else if (trace.actionPropertyViolated()) {
            verdict.add((name.isEmpty() ? "An action property" : "Action property " + name) + " is violated by the step into state "
                    + last.number() + " (" + last.action() + ", the last row): a step the property does not allow");
            trace.place().ifPresent(p -> verdict.add(quote(spec, p)));
        } else if (trace.violation().startsWith("Temporal") || trace.violation().contains("Property")) {
            verdict.add("Temporal property violated" + (name.isEmpty() ? "" : ": " + name) + ". After state " + last.number()
                    + " the behaviour " + (trace.loopsBackTo() > 0 && trace.loopsBackTo() < last.number()
                            ? "returns to state " + trace.loopsBackTo() + " for ever" : "stutters for ever (no step is taken any more)")
                    + ": what the property promises never happens");
        } else {
            verdict.add("Invariant " + name + " is violated in state " + last.number() + " (the last row)");
        }
        if (spec != null && !name.isEmpty() && !name.equals("deadlock")) {
            verdict.addAll(claim(spec, name));
        }
        if (spec != null && TlcWitness.knows(name) && o.containsKey("--module") && o.containsKey("--config") && o.containsKey("--tlc")) {
            String java = one(o, "--java", Path.of(System.getProperty("java.home"), "bin", "java").toString());
            verdict.addAll(TlcWitness.lines(name, last, spec, one(o, "--module", ""), spec.resolve(one(o, "--config", "")),
                    Path.of(one(o, "--tlc", "")), java));
        } else if (TlcWitness.knows(name)) {
            verdict.add("(./model-check.sh --pictures adds the numbers that violate it)");
        }
        String title = one(o, "--title", log.getFileName().toString());
        return TlcDiagrams.of(trace, title, one(o, "--about", ""), verdict);
    }

    /**
     * The comment lines right above "{@code name} ==" in the spec modules (in any folder under
     * the spec directory): the claim in words.
     */
    static List<String> claim(Path spec, String name) {
        try (Stream<Path> files = Files.walk(spec)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".tla")).sorted().toList()) {
                List<String> lines = Files.readAllLines(f);
                for (int i = 0; i < lines.size(); i++) {
                    if (lines.get(i).startsWith(name + " ==")) {
                        List<String> c = new ArrayList<>();
                        for (int j = i - 1; j >= 0 && lines.get(j).startsWith("\\*"); j--) {
                            c.add(0, lines.get(j).substring(2).strip());
                        }
                        return c.isEmpty() ? List.of() : List.of(name + " says: " + String.join(" ", c));
                    }
                }
            }
        } catch (IOException | UncheckedIOException e) {
            return List.of();
        }
        return List.of();
    }

    /**
     * The text of an action property where TLC placed it (module {@code place.module()} in any
     * folder under the spec directory), as "TEXT of module M is false of that step" (no line number:
     * the picture is kept in docs/, and lines move); TLC's place alone without a spec directory or if
     * the module cannot be read.
     */
    static String quote(Path spec, TlcTrace.Place place) {
        String where = "module " + place.module() + ", line " + place.fromLine();
        if (spec == null) {
            return "TLC: the action property at " + where + ", col " + place.fromCol();
        }
        try (Stream<Path> files = Files.walk(spec)) {
            Path f = files.filter(p -> p.getFileName().toString().equals(place.module() + ".tla")).sorted().findFirst().orElse(null);
            List<String> lines = f == null ? List.of() : Files.readAllLines(f);
            if (place.toLine() <= lines.size() && place.fromLine() >= 1) {
                StringBuilder text = new StringBuilder();
                for (int l = place.fromLine(); l <= place.toLine(); l++) {
                    String line = lines.get(l - 1);
                    int from = l == place.fromLine() ? place.fromCol() - 1 : 0;
                    int to = l == place.toLine() ? Math.min(place.toCol(), line.length()) : line.length();
                    text.append(text.length() == 0 ? "" : " ").append(from < to ? line.substring(from, to).strip() : "");
                }
                return text + " of module " + place.module() + " is false of that step";
            }
        } catch (IOException | UncheckedIOException e) {
            // the place as TLC gave it, below
        }
        return "TLC: the action property at " + where + ", col " + place.fromCol();
    }

    private static String one(Map<String, List<String>> o, String key, String dflt) {
        List<String> v = o.get(key);
        return v == null ? dflt : v.get(v.size() - 1);
    }

    private static Map<String, List<String>> options(List<String> args, List<String> positional) {
        List<String> valued = List.of("--title", "--about", "--spec", "--module", "--config", "--tlc", "--java",
                "--unexplained", "--why", "--property");
        Map<String, List<String>> o = new HashMap<>();
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            if (valued.contains(a)) {
                if (i + 1 >= args.size()) {
                    throw new IllegalArgumentException(a + " needs a value");
                }
                o.computeIfAbsent(a, k -> new ArrayList<>()).add(args.get(++i));
            } else if (a.startsWith("--")) {
                throw new IllegalArgumentException("unknown option '" + a + "'");
            } else {
                positional.add(a);
            }
        }
        return o;
    }
}
