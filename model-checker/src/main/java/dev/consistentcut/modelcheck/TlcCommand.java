package dev.consistentcut.modelcheck;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * The one place a TLC command line is assembled: for the runner's models, distributed TLC, the
 * scripts ({@code java -jar model-checker.jar tlc ...}) and the tools (trace validation, the
 * pictures' numbers, the tests that start TLC). A builder: each call adds to the command, and
 * {@link #toList()} gives it in TLC's order (JVM flags, class path, main class, TLC options,
 * module). Not thread-safe: build one per run on one thread. TLC's class-data archive
 * ({@link TlcArchive}) is mapped when it has been made, unless the flags choose their own sharing.
 *
 * <p>With a spec root, TLC gets {@code -DTLA-Library} naming every directory under it that holds
 * a {@code .tla} file, so that a module can EXTEND one in another folder (the specs may live in
 * one folder or in a folder per protocol family; the command works for both).
 */
public final class TlcCommand {

    /** TLC's main class. */
    public static final String TLC = "tlc2.TLC";
    /** Distributed TLC's server and worker. */
    public static final String SERVER = "tlc2.tool.distributed.TLCServer";
    public static final String WORKER = "tlc2.tool.distributed.TLCWorker";
    /**
     * C1 alone: a small model's (or a trace's) TLC run is too short for C2 to repay its compiling,
     * which takes a second core from the other TLC running at once ({@link TlcTuning} has the
     * measurements).
     */
    public static final String C1_ONLY = "-XX:TieredStopAtLevel=1";

    private final String java;
    private final Path tlcJar;
    private final List<String> jvm = new ArrayList<>();
    private final List<String> options = new ArrayList<>();
    private String mainClass = TLC;
    private String module;

    private TlcCommand(String java, Path tlcJar) {
        this.java = Objects.requireNonNull(java, "java");
        this.tlcJar = Objects.requireNonNull(tlcJar, "tlcJar");
    }

    /** A TLC command run by {@code java} (a path or a name on PATH) from the tla2tools jar. */
    public static TlcCommand of(String java, Path tlcJar) {
        return new TlcCommand(java, tlcJar);
    }

    /** A TLC command run by this JVM's java. */
    public static TlcCommand of(Path tlcJar) {
        return new TlcCommand(thisJava(), tlcJar);
    }

    /** This JVM's java executable. */
    public static String thisJava() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** The garbage collector for a TLC with that many workers ({@link TlcTuning#gcFlag}). */
    public TlcCommand gcFor(int workers) {
        return jvm(TlcTuning.gcFlag(workers));
    }

    /** JVM flags (-X..., -D...), in order; empty strings are skipped. */
    public TlcCommand jvm(String... flags) {
        for (String f : flags) {
            if (!f.isEmpty()) {
                jvm.add(f);
            }
        }
        return this;
    }

    /**
     * A private java.io.tmpdir: TLC unpacks its standard modules (TLC.tla, Bags.tla, ...) there,
     * and two TLC processes sharing /tmp can read each other's half-written copy (a spurious parse
     * error, "File does not exist: /tmp/Bags.tla").
     */
    public TlcCommand tmpDir(Path dir) {
        return jvm("-Djava.io.tmpdir=" + dir);
    }

    /** The spec root: TLC finds every module under it ({@link #libraryPath}). */
    public TlcCommand specRoot(Path root) {
        return jvm("-DTLA-Library=" + libraryPath(root));
    }

    /** Runs distributed TLC's server or a worker instead of TLC. */
    public TlcCommand main(String className) {
        this.mainClass = Objects.requireNonNull(className);
        return this;
    }

    public TlcCommand workers(int n) {
        return option("-workers", Integer.toString(n));
    }

    public TlcCommand metadir(Path dir) {
        return option("-metadir", dir.toString());
    }

    public TlcCommand config(String config) {
        return option("-config", config);
    }

    /** Random simulation: {@code num} behaviours of at most {@code depth} steps. */
    public TlcCommand simulate(long num, int depth) {
        return option("-simulate", "num=" + num).option("-depth", Integer.toString(depth));
    }

    public TlcCommand seed(long seed) {
        return option("-seed", Long.toString(seed));
    }

    /** Further TLC options or arguments, as given (-dump dot,actionlabels FILE, -version, a host). */
    public TlcCommand option(String... args) {
        options.addAll(List.of(args));
        return this;
    }

    /** The root module: {@code Name} or {@code Name.tla}, found in the working directory. */
    public TlcCommand module(String name) {
        this.module = name.endsWith(".tla") ? name : name + ".tla";
        return this;
    }

    /** The command, ready for a {@link ProcessBuilder}. */
    public List<String> toList() {
        List<String> cmd = new ArrayList<>();
        cmd.add(java);
        String archive = jvm.stream().anyMatch(f -> f.startsWith("-XX:SharedArchiveFile") || f.startsWith("-Xshare"))
                ? null : TlcArchive.flag(java, tlcJar);
        if (archive != null) {
            cmd.add(archive);
        }
        cmd.addAll(jvm);
        cmd.add("-cp");
        cmd.add(tlcJar.toAbsolutePath().toString());
        cmd.add(mainClass);
        cmd.addAll(options);
        if (module != null) {
            cmd.add(module);
        }
        return cmd;
    }

    /** A process builder for the command, run in {@code workingDir} (where the root module is). */
    public ProcessBuilder processBuilder(Path workingDir) {
        return new ProcessBuilder(toList()).directory(workingDir.toFile());
    }

    /**
     * Every directory under {@code root} (itself included) that holds a {@code .tla} file, in
     * sorted order, joined with the path separator: TLC's module search path.
     */
    public static String libraryPath(Path root) {
        List<String> dirs = new ArrayList<>();
        try (Stream<Path> s = Files.walk(root.toAbsolutePath().normalize())) {
            s.filter(p -> p.getFileName().toString().endsWith(".tla") && Files.isRegularFile(p))
                    .map(Path::getParent).distinct().sorted()
                    .forEach(d -> dirs.add(d.toString()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list the spec directory " + root, e);
        }
        return String.join(File.pathSeparator, dirs);
    }
}
