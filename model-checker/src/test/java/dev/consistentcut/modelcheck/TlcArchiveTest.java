package dev.consistentcut.modelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLC's class-data archive: mapped only once made, keyed by the jar, and never put in place unless
 * the JVM maps it (its broken twin: a JVM that writes a damaged archive).
 */
class TlcArchiveTest {

    private static final String JAVA = TlcCommand.thisJava();

    @Test
    void theCommandMapsTheArchiveOnceItIsThereUnlessItsFlagsChooseTheirOwnSharing(@TempDir Path dir) throws IOException {
        Path jar = Files.writeString(dir.resolve("tla2tools.jar"), "");
        List<String> before = TlcCommand.of(JAVA, jar).module("M").toList();
        assertFalse(before.stream().anyMatch(f -> f.startsWith("-XX:SharedArchiveFile")), before.toString());
        Path archive = TlcArchive.path(JAVA, jar);
        Files.createDirectories(archive.getParent());
        Files.writeString(archive, "");
        List<String> after = TlcCommand.of(JAVA, jar).gcFor(1).module("M").toList();
        assertEquals(List.of(JAVA, "-XX:SharedArchiveFile=" + archive, "-XX:+UseSerialGC"), after.subList(0, 3));
        List<String> own = TlcCommand.of(JAVA, jar).jvm("-Xshare:off").module("M").toList();
        assertFalse(own.stream().anyMatch(f -> f.startsWith("-XX:SharedArchiveFile")), own.toString());
    }

    @Test
    void anotherJarHasAnotherArchive(@TempDir Path dir) throws IOException {
        Path jar = Files.writeString(dir.resolve("tla2tools.jar"), "a");
        Path first = TlcArchive.path(JAVA, jar);
        Files.setLastModifiedTime(jar, FileTime.fromMillis(Files.getLastModifiedTime(jar).toMillis() - 60_000));
        assertNotEquals(first, TlcArchive.path(JAVA, jar));
    }

    /**
     * The twin of the check that puts an archive in place: a "java" that writes a damaged archive
     * (random bytes) where TLC's run should have written one, and is the real JVM otherwise. The
     * archive must not be put in place (the real JVM, with -Xshare:on, refuses to map it), the
     * failure must be remembered, and no command may map it.
     */
    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void anArchiveTheJvmCannotMapIsNeverPutInPlace(@TempDir Path dir) throws IOException {
        Path java = dir.resolve("jdk/bin/java");
        Files.createDirectories(java.getParent());
        Files.writeString(java, String.join("\n", "#!/bin/sh",
                "for a in \"$@\"; do case $a in -XX:ArchiveClassesAtExit=*) head -c 65536 /dev/urandom >\"${a#*=}\"; exit 12;; esac; done",
                "exec '" + JAVA + "' \"$@\"", ""));
        assertTrue(java.toFile().setExecutable(true));
        Path jar = Files.writeString(dir.resolve("tla2tools.jar"), "");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        TlcArchive.ensure(java.toString(), jar, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String said = bytes.toString(StandardCharsets.UTF_8);
        Path archive = TlcArchive.path(java.toString(), jar);
        assertFalse(Files.exists(archive), said);
        assertTrue(said.contains("not made (the JVM could not map it"), said);
        assertTrue(Files.isRegularFile(TlcArchive.none(archive)), said);
        List<String> cmd = TlcCommand.of(java.toString(), jar).module("M").toList();
        assertFalse(cmd.stream().anyMatch(f -> f.startsWith("-XX:SharedArchiveFile")), cmd.toString());
    }
}
