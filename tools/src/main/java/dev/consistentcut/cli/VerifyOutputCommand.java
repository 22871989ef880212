package dev.consistentcut.cli;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code verify-output --input FILE... --output DIR [--json]}: checks a file job's output directory
 * against its input files ({@link OutputCheck}). Exit 0 when every input record is committed
 * exactly once, 1 when not, 2 for bad usage, 3 when an input or DIR cannot be read.
 */
final class VerifyOutputCommand {

    static final String USAGE = String.join("\n",
            "Usage: " + CliOptions.JAR + " verify-output --input FILE... --output DIR [--json] [--files N]",
            "",
            "Checks the output directory of 'run --input FILE... --output DIR' against the input files,",
            "as an external reader sees it: the committed part files (part-*.txt) must hold every input",
            "record exactly once (source sI#0 reads the I-th --input, in the order given: give them in",
            "the order of the run), with its key, and nothing else; no transaction may be left pending",
            "(.txn-*.tmp: a finished job commits or aborts each). Lists the part files (the first N, default",
            "20) and the problems found (the first 20).",
            "",
            "Exit codes: 0 every input record exactly once; 1 records missing, duplicated or unknown, a",
            "malformed part file, or pending transactions; 2 bad usage; 3 an input or DIR unreadable.");

    private VerifyOutputCommand() {
    }

    static int run(String[] args, PrintStream out) throws UsageException {
        List<Path> inputs = new ArrayList<>();
        Path output = null;
        boolean json = false;
        int maxFiles = 20;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--input" -> inputs.add(Path.of(value(args, ++i, "--input")));
                case "--output" -> {
                    if (output != null) {
                        throw new UsageException("--output given twice");
                    }
                    output = Path.of(value(args, ++i, "--output"));
                }
                case "--json" -> json = true;
                case "--files" -> {
                    String v = value(args, ++i, "--files");
                    try {
                        maxFiles = Integer.parseInt(v);
                    } catch (NumberFormatException e) {
                        maxFiles = -1;
                    }
                    if (maxFiles < 0 || maxFiles > 1_000_000) {
                        throw new UsageException("--files must be between 0 and 1000000, got '" + v + "'");
                    }
                }
                default -> throw new UsageException("unknown argument '" + args[i] + "'");
            }
        }
        if (inputs.isEmpty()) {
            throw new UsageException("verify-output needs at least one --input FILE");
        }
        if (output == null) {
            throw new UsageException("verify-output needs --output DIR");
        }
        OutputCheck check = OutputCheck.check(inputs, output);
        out.println(json ? check.json(output) : check.text(output, maxFiles));
        return check.exactlyOnce() ? Main.OK : Main.VIOLATED;
    }

    private static String value(String[] args, int i, String option) throws UsageException {
        if (i >= args.length || args[i].startsWith("--")) {
            throw new UsageException(option + " needs a value");
        }
        return args[i];
    }
}
