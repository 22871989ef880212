package dev.consistentcut.modelcheck;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/** --mutants [ARGS]: the spec mutation harness instead, tests/spec-mutants.sh ARGS (its output and exit code). */
final class Mutants {

    private Mutants() {
    }

    static int run(Setup setup, List<String> args, PrintStream stdout, PrintStream stderr) {
        List<String> cmd = new ArrayList<>();
        cmd.add(setup.root().resolve("tests/spec-mutants.sh").toString());
        cmd.addAll(args);
        try {
            return Children.waitFor(Children.start(new ProcessBuilder(cmd).inheritIO()));
        } catch (IOException e) {
            stderr.println("model-check.sh: " + e.getMessage());
            return 3;
        }
    }
}
