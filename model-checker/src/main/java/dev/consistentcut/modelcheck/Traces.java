package dev.consistentcut.modelcheck;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * --trace: instead of the manifest, validate traces the engine recorded. The converter and the
 * validator live in the tools' jar (dev.consistentcut.trace.TraceTool), run as a child process
 * on the calling thread; its exit code is the run's (0, 1, 2 usage, 3 environment).
 */
final class Traces {

    private Traces() {
    }

    static int validate(Options o, Setup setup, String java, Path tlcJar, PrintStream human, PrintStream stdout)
            throws IOException {
        for (String t : o.traceFiles) {
            if (!Files.isRegularFile(Path.of(t))) {
                throw new SetupException("--trace " + t + ": no such file");
            }
        }
        Path impl = setup.toolsJar();
        if (!Files.isRegularFile(impl)) {
            if (setup.env("ENGINE_TOOLS_JAR") != null) {
                throw new SetupException("ENGINE_TOOLS_JAR=" + impl + ": no such file");
            }
            human.println("Building the tools (for the trace converter) ...");
            if (!ToolsBuild.build(setup)) {
                throw new SetupException("could not build the tools");
            }
        }
        Path json = setup.outDir().resolve("traces.json");
        // C1 alone for the validator's JVM (it parses traces and waits for its TLCs, also C1 alone).
        List<String> cmd = new ArrayList<>(List.of(java, TlcCommand.C1_ONLY, "-cp", impl.toString(),
                "dev.consistentcut.trace.TraceTool", "validate", "--spec", setup.specDir().toString(), "--tlc",
                tlcJar.toString(), "--logs", setup.outDir().resolve("traces").toString()));
        if (o.expectReject) {
            cmd.add("--expect-reject");
        }
        if (o.requireEnd) {
            cmd.add("--require-end");
        }
        if (o.coverageFile != null) {
            cmd.addAll(List.of("--coverage", o.coverageFile));
        }
        if (o.jobs != 1) {
            cmd.addAll(List.of("--jobs", Integer.toString(o.jobs)));
        }
        if (o.pictures != Options.Pictures.OFF) {
            cmd.add("--pictures"); // the validator is the renderer's jar: always there
        }
        if (o.json) {
            Files.createDirectories(setup.outDir());
            Files.deleteIfExists(json);
            cmd.addAll(List.of("--json", json.toString()));
        }
        cmd.addAll(o.traceFiles);
        Process p = Children.start(new ProcessBuilder(cmd).redirectErrorStream(false)
                .redirectError(ProcessBuilder.Redirect.INHERIT));
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                human.println(line);
            }
        }
        int rc = Children.waitFor(p);
        if (o.json) {
            if (!Files.isRegularFile(json)) {
                throw new SetupException("the trace validator wrote no JSON result");
            }
            stdout.print(Files.readString(json, StandardCharsets.UTF_8));
            stdout.flush();
        }
        return rc;
    }
}
