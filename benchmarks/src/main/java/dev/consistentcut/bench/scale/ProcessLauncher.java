package dev.consistentcut.bench.scale;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Launches {@code java -Xmx<heap> -jar tools.jar ...} as a child process, its stdout and stderr
 * into files in the run's work directory (a pipe could fill and stall the child). The heap is
 * fixed so that every point runs with the same collector budget whatever the machine's memory.
 * Called from one thread.
 */
public final class ProcessLauncher implements Launcher {

    private final Path toolsJar;
    private final String heap;

    public ProcessLauncher(Path toolsJar, String heap) {
        this.toolsJar = toolsJar;
        this.heap = heap;
    }

    @Override
    public Launched launch(List<String> args, Path workDir) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx" + heap, "-Djava.awt.headless=true", "-jar", toolsJar.toString()));
        command.addAll(args);
        Path out = workDir.resolve(args.get(0) + ".stdout");
        Path err = workDir.resolve(args.get(0) + ".stderr");
        long start = System.nanoTime();
        Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        int exit = p.waitFor();
        long wall = System.nanoTime() - start;
        return new Launched(exit, Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8), wall);
    }
}
