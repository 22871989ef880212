package dev.consistentcut.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MachineTest {

    private static void thread(Path tasks, String tid, String comm, String schedstat) throws IOException {
        Path t = Files.createDirectories(tasks.resolve(tid));
        Files.writeString(t.resolve("comm"), comm + "\n");
        Files.writeString(t.resolve("schedstat"), schedstat + "\n");
    }

    @Test
    void theCompilersCpuIsTheSumOfItsThreadsTimeOnTheCpu(@TempDir Path tasks) throws IOException {
        thread(tasks, "101", "C2 CompilerThre", "1500000000 20 30");
        thread(tasks, "102", "C1 CompilerThre", "250000000 1 2");
        thread(tasks, "103", "task-count#0", "9000000000 1 2"); // the job's: not the compiler's
        thread(tasks, "104", "G1 Conc#0", "7000000000 1 2");
        Files.createDirectories(tasks.resolve("105")); // a thread that ended while listed: no files
        assertEquals(1.75, Machine.compilerCpuSeconds(tasks), 1e-12);
    }

    @Test
    void withoutTheProcFilesItIsUnknown(@TempDir Path dir) {
        assertTrue(Double.isNaN(Machine.compilerCpuSeconds(dir.resolve("missing"))));
    }

    @Test
    void thisJvmsCompilerCpuIsReadWhereLinuxTellsIt() {
        double compiler = Machine.compilerCpuSeconds();
        if (Files.isDirectory(Path.of("/proc/self/task"))) {
            assertTrue(compiler >= 0 && compiler <= Machine.processCpuSeconds(), "compiler " + compiler + " s");
        } else {
            assertTrue(Double.isNaN(compiler));
        }
    }
}
