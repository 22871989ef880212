package dev.consistentcut.modelcheck;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A picture of every violation. The renderer is Java in the tools (dev.consistentcut.picture), run
 * as a child process from the tools' jar, so it needs no Graphviz. Drawing can never fail the run:
 * a picture that cannot be drawn is a message. Immutable once set up; {@link #draw} may run on
 * several threads at once (one picture file per model).
 */
final class Pictures {

    private final Setup setup;
    private final String java;
    private final Path tlcJar;
    private final Path toolsJar;
    private final boolean on;
    /** The numbers cost a TLC start per picture (about 1.5 s of CPU): only when asked for (--pictures). */
    private final boolean numbers;

    private Pictures(Setup setup, String java, Path tlcJar, Path toolsJar, boolean on, boolean numbers) {
        this.setup = setup;
        this.java = java;
        this.tlcJar = tlcJar;
        this.toolsJar = toolsJar;
        this.on = on;
        this.numbers = numbers;
    }

    /** --pictures builds the tools if needed; by default pictures are drawn (without numbers) when the tools' jar exists. */
    static Pictures of(Options o, Setup setup, String java, Path tlcJar, PrintStream out) {
        Path jar = setup.toolsJar();
        if (o.pictures == Options.Pictures.ON && !Files.isRegularFile(jar)) {
            out.println("Building the tools (for the picture renderer) ...");
            if (!ToolsBuild.build(setup)) {
                System.err.println("model-check.sh: could not build the tools: no pictures");
            }
        }
        boolean on = o.pictures != Options.Pictures.OFF && Files.isRegularFile(jar);
        return new Pictures(setup, java, tlcJar, jar, on, o.pictures == Options.Pictures.ON);
    }

    /** The result with its picture's path, or with the note why there is none. */
    Result draw(Model m, Result r) {
        if (!on || !(r.result().startsWith("inv:") || r.result().startsWith("prop:") || r.result().equals("deadlock"))) {
            return r;
        }
        Path dir = setup.outDir().resolve("pictures");
        Path svg = dir.resolve(m.name() + ".svg");
        Path err = dir.resolve(m.name() + ".err");
        List<String> cmd = new ArrayList<>(List.of(java, TlcCommand.C1_ONLY, "-cp", toolsJar.toString(),
                "dev.consistentcut.picture.PictureTool", "tlc", setup.outDir().resolve("logs/" + m.name() + ".log").toString(),
                svg.toString(), "--title", m.name() + " (" + r.result() + ")", "--about", m.description(), "--spec",
                setup.specDir().toString(), "--property", r.result().replaceFirst("^prop:", "")));
        if (numbers) {
            Path javaPath = setup.onPath(java);
            cmd.addAll(List.of("--module", m.module(), "--config", setup.specDir().relativize(m.configFile()).toString(),
                    "--tlc", tlcJar.toString(), "--java", javaPath != null ? javaPath.toString() : java));
        }
        try {
            Files.createDirectories(dir);
            Process p = Children.start(new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(err.toFile()));
            if (Children.waitFor(p) == 0) {
                Files.deleteIfExists(err);
                return r.withPicture(svg.toString(), null);
            }
            List<String> why = TlcLog.lines(err);
            return r.withPicture(null, "no picture of " + m.name() + ": " + (why.isEmpty() ? "" : why.get(0)));
        } catch (IOException e) {
            return r.withPicture(null, "no picture of " + m.name() + ": " + e.getMessage());
        }
    }
}
