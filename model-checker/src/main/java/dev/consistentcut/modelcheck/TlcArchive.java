package dev.consistentcut.modelcheck;

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Class-data sharing for TLC's JVMs: a dynamic CDS archive of the classes a TLC run loads (JDK 13+
 * {@code -XX:ArchiveClassesAtExit}), made once by a short TLC run on a small specification and then
 * mapped by every TLC the runner, the scripts and the tools start ({@code -XX:SharedArchiveFile},
 * added by {@link TlcCommand#toList()} when the archive is there). A TLC JVM then spends less CPU
 * loading and verifying TLC's classes; what TLC computes is the same, so no verdict or count
 * depends on it.
 *
 * <p>The archive lives beside the tla2tools jar ({@code cds/tlc-KEY.jsa}); KEY is made of the
 * java and the jar (their paths, sizes and modification times), because an archive only maps into
 * the JVM that wrote it, with the same jar. It is put in place only after a JVM started with
 * {@code -Xshare:on} (which fails rather than run without it) mapped it, so an archive that is there
 * is one the JVM takes. Where it cannot be made (no base archive in the JDK, a read-only directory),
 * TLC runs without it, and the reason is kept beside it ({@code tlc-KEY.none}, with the JVM's
 * output) so that the next run does not try again. {@code MODEL_CHECK_CDS=off} leaves it out (to compare, or to rule it out).
 */
public final class TlcArchive {

    /** The environment variable that turns the archive off: {@value}=off. */
    public static final String ENV = "MODEL_CHECK_CDS";

    /** The training specification: sequences, sets, an invariant violated (the error trace), coverage. */
    private static final String SPEC = String.join("\n",
            "---- MODULE CdsTraining ----",
            "EXTENDS Naturals, Sequences, FiniteSets, TLC",
            "VARIABLES q, s",
            "Init == q = <<>> /\\ s = {}",
            "Next == \\/ /\\ Len(q) < 3 /\\ \\E x \\in 1..2 : q' = Append(q, x) /\\ s' = s \\cup {x}",
            "        \\/ /\\ q # <<>> /\\ q' = Tail(q) /\\ UNCHANGED s",
            "Inv == Cardinality(s) < 2 \\/ Len(q) < 3",
            "Spec == Init /\\ [][Next]_<<q, s>>",
            "====", "");
    private static final String CFG = "SPECIFICATION Spec\nINVARIANT Inv\n";
    private static final long TIMEOUT_SECONDS = 120;

    private TlcArchive() {
    }

    /** Whether the environment turned the archive off. */
    static boolean off() {
        return "off".equals(System.getenv(ENV));
    }

    /**
     * The archive for TLC run by {@code java} (a path or a name on PATH) from {@code tlcJar}: where
     * it is, whether or not it has been made; null if the java cannot be found.
     */
    public static Path path(String java, Path tlcJar) {
        Path exe = executable(java);
        if (exe == null) {
            return null;
        }
        try {
            Path realJava = exe.toRealPath();
            Path home = realJava.getParent().getParent();
            Path jar = tlcJar.toAbsolutePath().normalize();
            StringBuilder key = new StringBuilder(realJava + "|" + jar + "|" + stamp(jar));
            for (Path p : List.of(home.resolve("lib/modules"), home.resolve("lib/server/libjvm.so"))) {
                key.append('|').append(Files.isRegularFile(p) ? stamp(p) : "-");
            }
            return jar.resolveSibling("cds").resolve(String.format("tlc-%08x.jsa", key.toString().hashCode()));
        } catch (IOException e) {
            return null;
        }
    }

    /** The JVM flag that maps the archive, or null if it is not there or turned off. */
    public static String flag(String java, Path tlcJar) {
        if (off()) {
            return null;
        }
        Path a = path(java, tlcJar);
        return a != null && Files.isRegularFile(a) && !Files.exists(none(a)) ? "-XX:SharedArchiveFile=" + a : null;
    }

    /**
     * Makes the archive if it is not there (one short TLC run and one JVM start, a few seconds);
     * runs started at once make it once. A failure is reported on {@code out} and leaves TLC
     * without the archive: never a setup error, never a verdict.
     */
    static void ensure(String java, Path tlcJar, PrintStream out) {
        if (off()) {
            return;
        }
        Path archive = path(java, tlcJar);
        if (archive == null || Files.isRegularFile(archive) || Files.exists(none(archive))) {
            return;
        }
        Path dir = archive.getParent();
        Path work = null;
        try {
            Files.createDirectories(dir);
            try (FileChannel ch = FileChannel.open(dir.resolve(".lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                 FileLock ignored = ch.lock()) {
                if (Files.isRegularFile(archive) || Files.exists(none(archive))) {
                    return; // made (or found impossible) by a run that held the lock before
                }
                long start = System.nanoTime();
                work = Files.createTempDirectory(dir, "train.");
                Files.writeString(work.resolve("CdsTraining.tla"), SPEC);
                Files.writeString(work.resolve("CdsTraining.cfg"), CFG);
                Path tmp = work.resolve("tlc.jsa");
                run(work, List.of(java, "-XX:ArchiveClassesAtExit=" + tmp, TlcCommand.C1_ONLY, "-XX:+UseSerialGC",
                        "-Djava.io.tmpdir=" + work, "-cp", tlcJar.toAbsolutePath().toString(), TlcCommand.TLC,
                        "-workers", "1", "-metadir", work.resolve("meta").toString(), "-coverage", "1",
                        "-config", "CdsTraining.cfg", "CdsTraining.tla"));
                if (!Files.isRegularFile(tmp)) {
                    giveUp(archive, work, "the JVM wrote none", out);
                    return;
                }
                // -Xshare:on fails unless the archive maps: one that is put in place is one the JVM takes.
                int mapped = run(work, List.of(java, "-Xshare:on", "-XX:SharedArchiveFile=" + tmp,
                        "-cp", tlcJar.toAbsolutePath().toString(), "-version"));
                if (mapped != 0) {
                    giveUp(archive, work, "the JVM could not map it", out);
                    return;
                }
                Files.move(tmp, archive, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                out.println("TLC class-data archive: made " + archive + " ("
                        + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) / 100 / 10.0 + " s)");
            }
        } catch (IOException e) {
            out.println("TLC class-data archive: not made (" + e.getMessage() + "); TLC runs without it");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (work != null) {
                ModelRun.deleteTree(work);
            }
        }
    }

    /** Where a failure to make the archive is remembered (with the JVM's output), so that it is tried once. */
    static Path none(Path archive) {
        return archive.resolveSibling(archive.getFileName().toString().replace(".jsa", ".none"));
    }

    private static void giveUp(Path archive, Path work, String why, PrintStream out) throws IOException {
        Path log = work.resolve("run.log");
        Files.move(log, none(archive), StandardCopyOption.REPLACE_EXISTING);
        out.println("TLC class-data archive: not made (" + why + "; the JVM's output: " + none(archive)
                + "); TLC runs without it");
    }

    private static int run(Path dir, List<String> cmd) throws IOException, InterruptedException {
        Process p = Children.start(new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("run.log").toFile())));
        boolean ended = p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        if (!ended) {
            p.destroyForcibly();
        }
        int exit = Children.waitFor(p); // forgets it: the runner's ending then stops nothing
        return ended ? exit : -1;
    }

    private static String stamp(Path p) throws IOException {
        return Files.size(p) + "@" + Files.getLastModifiedTime(p).toMillis();
    }

    private static Path executable(String java) {
        if (java.contains(File.separator)) {
            Path p = Path.of(java);
            return Files.isExecutable(p) ? p : null;
        }
        String path = System.getenv("PATH");
        if (path == null) {
            return null;
        }
        for (String d : path.split(File.pathSeparator)) {
            Path p = Path.of(d.isEmpty() ? "." : d, java);
            if (Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }
}
