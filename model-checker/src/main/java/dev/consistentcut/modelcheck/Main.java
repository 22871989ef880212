package dev.consistentcut.modelcheck;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * ./model-check.sh's runner: {@code java -jar model-checker.jar [options]} (see --help), or
 * {@code java -jar model-checker.jar tlc TLC-ARGS...} for the scripts that run TLC themselves
 * ({@link TlcTool}). Exit codes: 0 every model (trace) as expected; 1 some not; 2 bad usage; 3
 * setup or environment.
 */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        Path root = root();
        int code;
        if (args.length > 0 && args[0].equals("tlc")) {
            code = TlcTool.run(Arrays.asList(args).subList(1, args.length), Setup.of(root, System.getenv()), System.err);
        } else {
            code = run(Arrays.asList(args), Setup.of(root, System.getenv()), System.out, System.err);
        }
        System.out.flush();
        System.exit(code);
    }

    /**
     * The repository: model-check.root (the wrapper sets it), else two folders above this jar
     * (model-checker/target/model-checker.jar).
     */
    static Path root() {
        String given = System.getProperty("model-check.root");
        if (given != null) {
            return Path.of(given).toAbsolutePath().normalize();
        }
        try {
            Path jar = Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return jar.getParent().getParent().getParent().toAbsolutePath().normalize();
        } catch (URISyntaxException | NullPointerException e) {
            return Path.of("").toAbsolutePath();
        }
    }

    /** The whole run, on the calling thread; its exit code. */
    public static int run(List<String> args, Setup setup, PrintStream stdout, PrintStream stderr) {
        if (!args.isEmpty() && args.get(0).equals("--mutants")) {
            return Mutants.run(setup, args.subList(1, args.size()), stdout, stderr);
        }
        PrintStream human = stdout;
        try {
            Options o = Options.parse(args, Runtime.getRuntime().availableProcessors());
            if (o.help) {
                stdout.print(usage());
                return 0;
            }
            // --json: stdout keeps the one JSON document; everything else goes to stderr.
            human = o.json ? stderr : stdout;
            return new Run(o, setup, human, stdout).call();
        } catch (UsageException e) {
            stderr.println("model-check.sh: " + e.getMessage());
            if (e.withHelp) {
                stderr.println();
                stderr.print(usage());
            }
            return 2;
        } catch (SetupException e) {
            human.flush();
            stderr.println("model-check.sh: " + e.getMessage());
            return 3;
        } catch (IOException | UncheckedIOException e) {
            stderr.println("model-check.sh: " + e.getMessage());
            return 3;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stderr.println("model-check.sh: interrupted; TLC stopped");
            return 130;
        }
    }

    /** The --help text. */
    static String usage() {
        try (InputStream in = Main.class.getResourceAsStream("usage.txt")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException | NullPointerException e) {
            return "Usage: ./model-check.sh [options]\n";
        }
    }
}
