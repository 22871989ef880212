package dev.consistentcut.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** The machine a run came from, for the table's caption. Read once; immutable. */
public record Machine(String cpu, int cores, String memory, String os, String jvm) {

    public static Machine current() {
        return new Machine(
                cpuModel().orElse(System.getProperty("os.arch")),
                Runtime.getRuntime().availableProcessors(),
                memTotal().orElse("unknown memory"),
                System.getProperty("os.name") + " " + System.getProperty("os.version"),
                System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
    }

    /** The one-minute load average now, or NaN where the OS does not tell. */
    /**
     * CPU time this JVM has used, all its threads (the JIT's and the collector's too), in seconds;
     * NaN where the JVM does not report it. Both engines run in the benchmark's JVM one at a time,
     * so the difference over a measurement window is the CPU that window's job cost.
     */
    public static double processCpuSeconds() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            long nanos = os.getProcessCpuTime();
            return nanos < 0 ? Double.NaN : nanos / 1e9;
        }
        return Double.NaN;
    }

    /**
     * CPU time the JVM's JIT compiler threads have used, in seconds, read from Linux's per-thread
     * scheduler statistics ({@code /proc/self/task/<tid>/schedstat}, nanoseconds on the CPU) of
     * the threads named "C1 CompilerThread..." and "C2 CompilerThread..." (HotSpot's; the kernel
     * keeps their first 15 characters); NaN where there is no such file. A compiler thread that
     * HotSpot stops between two readings takes its time with it, so a difference over a window can
     * only be short of the compiler's CPU, never above it.
     */
    public static double compilerCpuSeconds() {
        return compilerCpuSeconds(Path.of("/proc/self/task"));
    }

    /** {@link #compilerCpuSeconds()} read from {@code tasks}, a directory laid out as {@code /proc/self/task}. */
    static double compilerCpuSeconds(Path tasks) {
        long nanos = 0;
        try (java.util.stream.Stream<Path> s = Files.list(tasks)) {
            for (Path t : (Iterable<Path>) s::iterator) {
                try {
                    String comm = Files.readString(t.resolve("comm")).trim();
                    if (comm.startsWith("C1 CompilerThre") || comm.startsWith("C2 CompilerThre")) {
                        String stat = Files.readString(t.resolve("schedstat")).trim();
                        nanos += Long.parseLong(stat.substring(0, stat.indexOf(' ')));
                    }
                } catch (IOException | RuntimeException gone) {
                    // the thread ended between the listing and the read: nothing to add
                }
            }
        } catch (IOException | RuntimeException e) {
            return Double.NaN;
        }
        return nanos / 1e9;
    }

    public static double loadAverage() {
        double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        return load < 0 ? Double.NaN : load;
    }

    public String describe() {
        return String.format("%s, %d cores, %s, %s, %s", cpu, cores, memory, os, jvm);
    }

    private static Optional<String> cpuModel() {
        return procLine("/proc/cpuinfo", "model name").map(l -> l.substring(l.indexOf(':') + 1).trim());
    }

    private static Optional<String> memTotal() {
        return procLine("/proc/meminfo", "MemTotal").map(l -> {
            long kb = Long.parseLong(l.replaceAll("[^0-9]", ""));
            return String.format("%.0f GB RAM", kb / 1024.0 / 1024.0);
        });
    }

    private static Optional<String> procLine(String file, String prefix) {
        try {
            return Files.readAllLines(Path.of(file)).stream().filter(l -> l.startsWith(prefix)).findFirst();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
