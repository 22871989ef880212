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
