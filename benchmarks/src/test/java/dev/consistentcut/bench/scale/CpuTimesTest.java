package dev.consistentcut.bench.scale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

class CpuTimesTest {

    @Test
    void theChildrensUserAndSystemTimesAreAdded() {
        assertEquals(74_250_000_000L, CpuTimes.childrenNanos("0m0.004s 0m0.002s\n1m12.250s 0m2.000s\n"), "bash's format");
        assertEquals(3_500_000_000L, CpuTimes.childrenNanos("0m0.00s 0m0.00s\n0m3.25s 0m0.25s\n"), "dash's format");
        assertEquals(1_500_000_000L, CpuTimes.childrenNanos("0m0,00s 0m0,00s\n0m1,25s 0m0,25s\n"), "a decimal comma");
    }

    @Test
    void anythingElseIsNotKnown() {
        assertEquals(-1, CpuTimes.childrenNanos(""));
        assertEquals(-1, CpuTimes.childrenNanos("0m0.00s 0m0.00s\n"));
        assertEquals(-1, CpuTimes.childrenNanos("0m0.00s 0m0.00s\nsoon\n"));
    }

    /** The launcher's shell line: the JVM's exit code and output come through, and its CPU time is read. */
    @Test
    @EnabledOnOs({OS.LINUX, OS.MAC})
    void theLauncherPassesTheExitCodeThroughAndReadsTheCpuTime(@TempDir Path tmp) throws Exception {
        Launcher.Launched l = new ProcessLauncher(tmp.resolve("no such.jar"), "64m").launch(List.of("run", "--help"), tmp);
        assertEquals(1, l.exitCode(), "java's own exit code for a jar it cannot open");
        assertTrue(l.stderr().contains("no such.jar"), l.stderr());
        assertTrue(l.cpuNanos() >= 0, "known (the launcher stops before starting a VM: it may be 0): " + l.cpuNanos());
        assertTrue(Files.exists(tmp.resolve("run.times")));
    }
}
