package dev.consistentcut.modelcheck;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * One TLC run of one model: TLC in the model's folder, its output kept in logs/NAME.log, its
 * "Progress(...)" lines (about once a minute) passed through as the progress of long runs.
 * Immutable; {@link #run} may be called on several threads at once (each model has its own log
 * and metadir), which the scheduler does with --jobs.
 */
final class ModelRun {

    private static final Pattern SPECIFICATION = Pattern.compile("^\\s*SPECIFICATION\\s+([A-Za-z]+)\\s*$");

    /** How often TLC prints its coverage during a run; the last section (at the end) is the one read. */
    static final int COVERAGE_MINUTES = 60;

    private final Options options;
    private final Setup setup;
    private final String java;
    private final Path tlcJar;
    private final PrintStream out;

    ModelRun(Options options, Setup setup, String java, Path tlcJar, PrintStream out) {
        this.options = options;
        this.setup = setup;
        this.java = java;
        this.tlcJar = tlcJar;
        this.out = out;
    }

    /** The SPECIFICATION a model's config names, or null. */
    static String specificationOf(Model m) {
        for (String l : TlcLog.lines(m.configFile())) {
            Matcher x = SPECIFICATION.matcher(l);
            if (x.matches()) {
                return x.group(1);
            }
        }
        return null;
    }

    Path log(Model m) {
        return setup.outDir().resolve("logs").resolve(m.name() + ".log");
    }

    /** Runs TLC on the model; the result's ok says whether it did what the manifest says (counts not compared yet). */
    Result run(Model m) throws IOException {
        Path log = log(m);
        Path meta = Files.createTempDirectory(Files.createDirectories(setup.outDir().resolve("meta")), m.name() + ".");
        int workers = m.simulated() ? options.workers : options.exhaustiveWorkers();
        TlcCommand cmd = TlcCommand.of(java, tlcJar)
                .gcFor(workers)
                .jvm(TlcTuning.jitFlag(m.pinnedStates(), specificationOf(m)))
                .tmpDir(meta)
                .specRoot(setup.specDir());
        if (m.simulated()) {
            cmd.simulate(options.traces, options.depth);
        }
        if (options.covers(m)) {
            // TLC prints the section every N minutes and at the end; the runner reads the last one.
            cmd.option("-coverage", Integer.toString(COVERAGE_MINUTES));
        }
        cmd.workers(workers).metadir(meta).config(m.config());
        if (m.module().endsWith("Sample")) {
            cmd.seed(options.sampleSeed);
        }
        cmd.module(m.module());
        long start = Instant.now().getEpochSecond();
        Process p = Children.start(cmd.processBuilder(m.folder()).redirectErrorStream(true));
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.ISO_8859_1));
             BufferedWriter w = Files.newBufferedWriter(log, StandardCharsets.ISO_8859_1)) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                w.write(line);
                w.newLine();
                if (line.startsWith("Progress(")) {
                    w.flush();
                    out.println("    [" + m.name() + "] " + line);
                }
            }
        }
        int exit = Children.waitFor(p);
        long seconds = Instant.now().getEpochSecond() - start;
        deleteTree(meta);
        List<String> lines = TlcLog.lines(log);
        String result = TlcLog.result(exit, lines, m.configFile());
        return new Result(exit, result, TlcLog.states(lines), TlcLog.depth(lines), seconds, result.equals(m.expect()), null, null);
    }

    static void deleteTree(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // best effort: a leftover metadir loses nothing
        }
    }
}
