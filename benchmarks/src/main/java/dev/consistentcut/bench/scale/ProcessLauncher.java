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
 * The JVM runs under {@code sh -c}, whose {@code times} then reports its CPU time
 * ({@link CpuTimes}). Called from one thread.
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
        Path cpu = workDir.resolve(args.get(0) + ".times");
        // $0 is the times file, "$@" the JVM's command line; the shell exits with the JVM's code.
        List<String> command = new ArrayList<>(List.of("/bin/sh", "-c", "\"$@\"; rc=$?; times > \"$0\"; exit $rc", cpu.toString(),
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx" + heap, "-Djava.awt.headless=true", "-jar", toolsJar.toString()));
        command.addAll(args);
        Path out = workDir.resolve(args.get(0) + ".stdout");
        Path err = workDir.resolve(args.get(0) + ".stderr");
        long start = System.nanoTime();
        Process p = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        int exit = p.waitFor();
        long wall = System.nanoTime() - start;
        long cpuNanos = Files.exists(cpu) ? CpuTimes.childrenNanos(Files.readString(cpu, StandardCharsets.UTF_8)) : -1;
        return new Launched(exit, Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8), wall,
                cpuNanos);
    }
}
