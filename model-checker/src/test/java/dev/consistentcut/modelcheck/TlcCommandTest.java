package dev.consistentcut.modelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The one TLC command line: its order, and the module path that lets a module EXTEND one in another folder. */
class TlcCommandTest {

    @Test
    void theLibraryPathNamesEveryFolderWithAModule(@TempDir Path dir) throws IOException {
        Files.createDirectories(dir.resolve("core"));
        Files.createDirectories(dir.resolve("aligned/deeper"));
        Files.createDirectories(dir.resolve("empty"));
        Files.writeString(dir.resolve("core/A.tla"), "");
        Files.writeString(dir.resolve("aligned/B.tla"), "");
        Files.writeString(dir.resolve("aligned/deeper/C.tla"), "");
        Files.writeString(dir.resolve("empty/notes.txt"), "");
        assertEquals(String.join(File.pathSeparator, dir.resolve("aligned").toString(), dir.resolve("aligned/deeper").toString(),
                dir.resolve("core").toString()), TlcCommand.libraryPath(dir));
    }

    @Test
    void theCommandPutsJvmFlagsBeforeTheClassAndTheModuleLast(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("M.tla"), "");
        List<String> cmd = TlcCommand.of("java", dir.resolve("tla2tools.jar")).gcFor(1).tmpDir(dir.resolve("tmp"))
                .specRoot(dir).workers(1).metadir(dir.resolve("meta")).config("M.cfg").module("M").toList();
        assertEquals(List.of("java", "-XX:+UseSerialGC", "-Djava.io.tmpdir=" + dir.resolve("tmp"), "-DTLA-Library=" + dir,
                "-cp", dir.resolve("tla2tools.jar").toString(), "tlc2.TLC", "-workers", "1", "-metadir",
                dir.resolve("meta").toString(), "-config", "M.cfg", "M.tla"), cmd);
    }

    @Test
    void smallSafetyModelsRunWithC1AloneAndSeveralWorkersWithTheParallelCollector() {
        assertEquals(TlcCommand.C1_ONLY, TlcTuning.jitFlag(29_999L, "Spec"));
        assertEquals("", TlcTuning.jitFlag(30_000L, "Spec"));
        assertEquals("", TlcTuning.jitFlag(10_000L, "FairSpec"));
        assertEquals("", TlcTuning.jitFlag(100L, "IndSpec"));
        assertEquals("", TlcTuning.jitFlag(null, "Spec"));
        assertEquals("-XX:+UseParallelGC", TlcTuning.gcFlag(2));
    }
}
