package dev.consistentcut.modelcheck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The wrapper ./model-check.sh itself, on the java it is given: a JAVA that is not there, or is
 * there but does not start or is too old, is an environment error (exit 3, naming it), never the
 * exit 1 of a verdict. Each case ends before the wrapper builds or starts the runner.
 */
class WrapperJavaTest {

    private static final Path SCRIPT = Path.of("..", "model-check.sh").toAbsolutePath().normalize();

    @TempDir
    Path dir;

    @Test
    void aMissingJavaIsAnEnvironmentError() throws Exception {
        assertEnvironmentError("/nonexistent/java", "model-check.sh: JAVA=/nonexistent/java: no such executable");
    }

    @Test
    void aJavaThatDoesNotStartIsAnEnvironmentError() throws Exception {
        Path java = fakeJava("echo 'Error: Could not create the Java Virtual Machine.' >&2; exit 1");
        assertEnvironmentError(java.toString(), "model-check.sh: JAVA=" + java + " does not start: Error: Could not create");
    }

    @Test
    void aJavaOlderThan17IsAnEnvironmentError() throws Exception {
        Path java = fakeJava("echo 'java version \"1.8.0_292\"' >&2; exit 0");
        assertEnvironmentError(java.toString(), "model-check.sh: JAVA=" + java + " is Java 8; the runner needs 17 or newer");
    }

    /** A stand-in for java: a shell script running {@code body}. */
    private Path fakeJava(String body) throws IOException {
        Path java = dir.resolve("java");
        Files.writeString(java, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        return java;
    }

    private void assertEnvironmentError(String java, String message) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("bash", SCRIPT.toString(), "--list")
                .redirectErrorStream(true).redirectOutput(dir.resolve("out.log").toFile());
        pb.environment().put("JAVA", java);
        Process p = pb.start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the wrapper did not end"); // a bound for a hang, not a measure
        String out = Files.readString(dir.resolve("out.log"), StandardCharsets.UTF_8);
        assertEquals(3, p.exitValue(), out);
        assertTrue(out.contains(message), out);
    }
}
