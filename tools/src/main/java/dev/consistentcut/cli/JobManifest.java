package dev.consistentcut.cli;

import dev.consistentcut.sink.SinkIoException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The job manifest: what {@code resume} needs to rebuild a job in a new process, written
 * by {@code run --checkpoint-dir DIR} as {@code DIR/MANIFEST} before the first checkpoint. One
 * {@code key=value} per line, in a fixed order; {@code #} lines are comments. The job id is also
 * inside every checkpoint file (format version 2), so a checkpoint is never restored into another
 * job. The job graph is described in words and compared on resume with the graph this build would
 * build from the options, so a build whose demo job differs refuses to resume instead of mixing
 * graphs.
 *
 * @param formatVersion {@value #FORMAT_VERSION} for this build
 * @param jobId a random UUID, fixed when the job starts
 * @param graph the job graph in words ({@link DemoJob#describe})
 * @param options every run option that defines the job, by option name without {@code --}
 */
record JobManifest(int formatVersion, String jobId, String graph, Map<String, String> options) {

    static final int FORMAT_VERSION = 1;
    static final String FILE = "MANIFEST";

    JobManifest {
        options = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(options));
    }

    /**
     * Options added after manifest format 1 was fixed, with the value a manifest written without
     * them resumes with: {@code buffer-size} 0, the default network buffers (a build
     * from before network buffers ran one-record buffers; the buffer size changes how records travel, not
     * what the job computes, and a checkpoint's channel state is restored into buffers of any
     * size). {@link CliOptions#parse} gives a missing option its default, so this is the value a
     * {@code --buffer-size} given to resume is compared with.
     */
    static final Map<String, String> ADDED_LATER = Map.of("buffer-size", "0");

    /** The manifest of a new job run with {@code o}. */
    static JobManifest of(String jobId, CliOptions o) {
        return new JobManifest(FORMAT_VERSION, jobId, CliJob.describe(o), jobOptions(o));
    }

    /** The options that define a job, as the manifest writes them (a missing mode is left out). */
    static Map<String, String> jobOptions(CliOptions o) {
        Map<String, String> m = new LinkedHashMap<>();
        if (o.mode() != null) {
            m.put("mode", o.mode().name());
        }
        m.put("runtime", o.simulation() ? "simulation" : "threads");
        m.put("records", Integer.toString(o.records()));
        m.put("seed", Long.toString(o.seed()));
        m.put("capacity", Integer.toString(o.capacity()));
        if (!o.simulation()) {
            m.put("buffer-size", Integer.toString(o.bufferSize())); // 0: a quarter of the capacity
        }
        m.put("sink-delay-us", Long.toString(o.sinkDelayMicros()));
        m.put("interval-ms", Long.toString(o.intervalMs()));
        m.put("fail-after-checkpoint", Integer.toString(o.failAfterCheckpoint()));
        m.put("tolerable-failed-checkpoints", Integer.toString(o.tolerableFailedCheckpoints()));
        if (o.fileJob()) {
            // absolute paths: a resume may run in another working directory
            for (int i = 0; i < o.inputs().size(); i++) {
                m.put("input-" + (i + 1), o.inputs().get(i).toAbsolutePath().normalize().toString());
            }
            m.put("output", o.output().toAbsolutePath().normalize().toString());
            m.remove("records");
        } else if (o.endOfInput()) {
            m.put("end-of-input", ""); // a flag: no value
        }
        if (o.mode() != null && o.mode().alignedTimeoutMillis() >= 0) {
            m.put("aligned-timeout-ms", Long.toString(o.mode().alignedTimeoutMillis()));
        }
        if (o.savepointEvery() > 0) {
            m.put("savepoint-every", Integer.toString(o.savepointEvery()));
        }
        m.put("max-parallelism", Integer.toString(o.maxParallelism()));
        // the parallelism the job runs at now: a rescaling resume rewrites it
        m.put("parallelism", CliOptions.KEYED + "=" + o.parallelism());
        return m;
    }

    /** The manifest's options as a command line for {@link CliOptions#parse} (which checks every value again). */
    String[] asArguments() {
        java.util.List<String> a = new java.util.ArrayList<>();
        options.forEach((k, v) -> {
            a.add(k.matches("input-\\d+") ? "--input" : "--" + k);
            if (!v.isEmpty()) {
                a.add(v);
            }
        });
        return a.toArray(String[]::new);
    }

    String text() {
        StringBuilder b = new StringBuilder("# consistent-cut job manifest: written by 'run --checkpoint-dir',"
                + " read by 'resume' and 'inspect'\n");
        b.append("format-version=").append(formatVersion).append('\n');
        b.append("job-id=").append(jobId).append('\n');
        b.append("job-graph=").append(graph).append('\n');
        options.forEach((k, v) -> b.append(k).append('=').append(v).append('\n'));
        return b.toString();
    }

    /**
     * Reads {@code dir/MANIFEST}.
     *
     * @throws NoSuchFileException when there is none
     * @throws EnvironmentException naming the file when it cannot be read or is not a manifest this build reads
     */
    static JobManifest read(Path dir) throws NoSuchFileException {
        Path file = dir.resolve(FILE);
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw e;
        } catch (IOException e) {
            throw new EnvironmentException(file + ": cannot be read: " + SinkIoException.reason(e), e);
        }
        Map<String, String> kv = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int eq = line.indexOf('=');
            if (eq < 1) {
                throw new EnvironmentException(file + ": not a job manifest: line '" + line + "' is not key=value");
            }
            kv.put(line.substring(0, eq), line.substring(eq + 1));
        }
        String version = kv.remove("format-version");
        if (version == null || !version.matches("\\d{1,9}")) {
            throw new EnvironmentException(file + ": not a job manifest: no format-version line");
        }
        if (Integer.parseInt(version) != FORMAT_VERSION) {
            throw new EnvironmentException(file + ": manifest format version " + version
                    + ", this build reads version " + FORMAT_VERSION);
        }
        String jobId = kv.remove("job-id");
        String graph = kv.remove("job-graph");
        if (jobId == null || graph == null) {
            throw new EnvironmentException(file + ": not a job manifest: job-id or job-graph missing");
        }
        return new JobManifest(FORMAT_VERSION, jobId, graph, kv);
    }

    /** The manifest's value of option {@code key}, or for one it lacks, what that means ({@link #ADDED_LATER}, else null). */
    String recorded(String key) {
        return options.getOrDefault(key, ADDED_LATER.get(key));
    }

    /** The manifest's value of an option, e.g. {@code records}; an EnvironmentException when missing. */
    String option(String name, Path dir) {
        String v = options.get(name);
        if (v == null) {
            throw new EnvironmentException(dir.resolve(FILE) + ": option '" + name + "' missing");
        }
        return v;
    }
}
