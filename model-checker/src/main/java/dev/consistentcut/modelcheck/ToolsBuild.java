package dev.consistentcut.modelcheck;

import java.io.File;
import java.io.IOException;

/** Builds the engine tools' jar (the trace converter and validator, the picture renderer) with Maven. */
final class ToolsBuild {

    private ToolsBuild() {
    }

    /** mvn package of the tools and what they need, tests not run; whether it worked. */
    static boolean build(Setup setup) {
        try {
            ProcessBuilder build = new ProcessBuilder("mvn", "-B", "-q", "-ntp", "-DskipTests", "package", "-pl", "tools", "-am")
                    .directory(setup.root().toFile())
                    // Maven's output is the build's, never the --json document on stdout.
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(new File("/dev/stderr")))
                    .redirectError(ProcessBuilder.Redirect.INHERIT);
            Process p = Children.start(build);
            return Children.waitFor(p) == 0;
        } catch (IOException e) {
            System.err.println("model-check.sh: " + e.getMessage());
            return false;
        }
    }
}
