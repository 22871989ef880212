package dev.consistentcut.cli;

import dev.consistentcut.barrier.DeliveryGuarantee;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code verify-output --input FILE... --output DIR [--mode M] [--json]}: checks a file job's output
 * directory against its input files ({@link OutputCheck}) for the promise of mode M: every input record
 * committed exactly once (the default), or, {@code --mode at-least-once}, at least once (duplicates
 * allowed, nothing missing, nothing invented). Exit 0 when the promise holds, 1 when not, 2 for bad
 * usage, 3 when an input or DIR cannot be read. Runs on the caller's thread.
 */
final class VerifyOutputCommand {

    static final String USAGE = String.join("\n",
            "Usage: " + CliOptions.JAR + " verify-output --input FILE... --output DIR [--mode M] [--json] [--files N]",
            "",
            "Checks the output directory of 'run --input FILE... --output DIR' against the input files,",
            "as an external reader sees it: the committed part files (part-*.txt) must hold every input",
            "record exactly once (source sI#0 reads the I-th --input, in the order given: give them in",
            "the order of the run), with its key, and nothing else; no transaction may be left pending",
            "(.txn-*.tmp: a finished job commits or aborts each). Lists the part files (the first N, default",
            "20) and the problems found (the first 20).",
            "",
            "  --mode exactly-once|at-least-once   the promise checked (default exactly-once); at-least-once,",
            "                                 the output of 'run --mode at-least-once': every input record",
            "                                 at least once (the duplicates are counted), nothing else, no",
            "                                 transaction pending",
            "",
            "Exit codes: 0 every input record exactly once (at least once with --mode at-least-once); 1",
            "records missing, duplicated (exactly-once) or unknown, a malformed part file, or pending",
            "transactions; 2 bad usage; 3 an input or DIR unreadable.");

    private VerifyOutputCommand() {
    }

    static int run(String[] args, PrintStream out) throws UsageException {
        List<Path> inputs = new ArrayList<>();
        Path output = null;
        boolean json = false;
        int maxFiles = 20;
        DeliveryGuarantee guarantee = DeliveryGuarantee.EXACTLY_ONCE;
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
                case "--mode" -> guarantee = guarantee(value(args, ++i, "--mode"));
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
        CliJob.requireRegularFiles(inputs);
        OutputCheck check = OutputCheck.check(inputs, output);
        out.println(json ? check.json(output, guarantee) : check.text(output, maxFiles, guarantee));
        return check.holds(guarantee) ? Main.OK : Main.VIOLATED;
    }

    private static DeliveryGuarantee guarantee(String mode) throws UsageException {
        return switch (mode) {
            case "exactly-once" -> DeliveryGuarantee.EXACTLY_ONCE;
            case "at-least-once" -> DeliveryGuarantee.AT_LEAST_ONCE;
            default -> throw new UsageException("--mode must be exactly-once or at-least-once, got '" + mode + "'");
        };
    }

    private static String value(String[] args, int i, String option) throws UsageException {
        if (i >= args.length || args[i].startsWith("--")) {
            throw new UsageException(option + " needs a value");
        }
        return args[i];
    }
}
