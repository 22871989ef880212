package dev.consistentcut.modelcheck;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code java -jar model-checker.jar tlc [--jvm FLAG]... TLC-ARGS... MODULE.tla}: runs TLC for a
 * script (the spec replay's and the pictures' state graphs) with the command line every TLC run
 * gets ({@link TlcCommand}): the resolved tla2tools jar, the spec root's module path, the garbage
 * collector for its -workers, a private java.io.tmpdir. TLC runs in the current directory with
 * this process's output; the exit code is TLC's (3: no TLC). Runs on the calling thread.
 */
final class TlcTool {

    private TlcTool() {
    }

    static int run(List<String> args, Setup setup, PrintStream err) {
        List<String> jvm = new ArrayList<>();
        int k = 0;
        while (k + 1 < args.size() && args.get(k).equals("--jvm")) {
            jvm.add(args.get(k + 1));
            k += 2;
        }
        List<String> tlcArgs = args.subList(k, args.size());
        if (tlcArgs.isEmpty()) {
            err.println("model-checker tlc: usage: tlc [--jvm FLAG]... TLC-ARGS... MODULE.tla");
            return 2;
        }
        int workers = 1;
        int at = tlcArgs.indexOf("-workers");
        if (at >= 0 && at + 1 < tlcArgs.size() && tlcArgs.get(at + 1).matches("[0-9]+")) {
            workers = Integer.parseInt(tlcArgs.get(at + 1));
        }
        Path tmp = null;
        try {
            String java = setup.java();
            Path jar = TlcJar.find(setup, err);
            TlcArchive.ensure(java, jar, err);
            tmp = Files.createTempDirectory("tlc-tmp");
            List<String> cmd = TlcCommand.of(java, jar).gcFor(workers).jvm(jvm.toArray(String[]::new)).tmpDir(tmp)
                    .specRoot(setup.specDir()).option(tlcArgs.toArray(String[]::new)).toList();
            return Children.waitFor(Children.start(new ProcessBuilder(cmd).inheritIO()));
        } catch (SetupException e) {
            err.println("model-checker tlc: " + e.getMessage());
            return 3;
        } catch (IOException e) {
            err.println("model-checker tlc: " + e.getMessage());
            return 3;
        } finally {
            if (tmp != null) {
                ModelRun.deleteTree(tmp);
            }
        }
    }
}
