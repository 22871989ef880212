package dev.consistentcut.cli;

import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.runtime.Rescaling;
import dev.consistentcut.sink.MemorySinkDirectory;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * {@code resume DIR}: continues the job whose manifest is in DIR, in this new process, from the
 * latest valid checkpoint (falling back past damaged ones, each reported), and runs it to the end
 * with every invariant checked. The checkpoint holds each task's processed-record
 * ledger, so the final {@code ExactlyOnceInv} covers the records processed before the crash too:
 * the verdict is the one a run that never died would get. With {@code --parallelism count=N} the
 * job is rescaled on restore ({@link Rescaling}) and its manifest rewritten to run at N from then on.
 */
final class ResumeCommand {

    static final String USAGE = String.join("\n",
            "Usage: " + CliOptions.JAR + " resume DIR [options]",
            "",
            "Continues the job started with 'run --checkpoint-dir DIR' (killed, crashed, or failed",
            "with too many failed checkpoints) in this process, from the latest valid checkpoint in",
            "DIR (an older one if the newest is damaged, saying so), and runs it to its end: the",
            "report and exit code are those of run. The job's options come from DIR/MANIFEST; an",
            "option given here must agree with it, except these, which may differ per process:",
            "  --interval-ms N, --sink-delay-us N, --tolerable-failed-checkpoints N, --json,",
            "  --retain N (the checkpoints this process's store keeps; default " + CliOptions.DEFAULT_RETAIN + ")",
            "A finished job is not run again: its recorded verdict is printed (exit 0 or 1). The",
            "failure of --fail-after-checkpoint is injected by the first process only. The job keeps",
            "its --buffer-size (a manifest written before that option existed: the default, 0).",
            "--parallelism count=N restores the job with its keyed count at N tasks, each given the",
            "key groups of its new range (1..the job's --max-parallelism); the job then runs at N",
            "(the manifest says so); in-flight records a checkpoint stored (unaligned, alternating) go to",
            "the new task owning their key group.",
            "Exit codes: 0 the mode's promise holds (exactly-once; at-least-once in that mode); 1 violated;",
            "2 bad usage or options contradicting the manifest; 3 DIR missing, unreadable, in use, or not a job",
            "directory, its FINISHED marker damaged, or the file job's --output gone or failing (I/O).");

    /** The verdicts a finished run records in FINISHED ({@link Report#verdictLine}) that say its promise holds. */
    private static final java.util.Set<String> HOLDS = java.util.Set.of("verdict: exactly-once holds",
            "verdict: at-least-once holds");

    private ResumeCommand() {
    }

    static int run(String[] args, PrintStream out, PrintStream err, Plugs plugs) throws UsageException {
        Function<String, BarrierMode> modes = plugs.modes();
        if (args.length == 0 || args[0].startsWith("--")) {
            throw new UsageException("resume needs the job's directory: resume DIR [options]");
        }
        Path path = Path.of(args[0]);
        CliOptions given = CliOptions.parse(args, 1, modes, false);
        if (given.given().contains("--checkpoint-dir")) {
            throw new UsageException("resume takes the job's directory as its argument, not --checkpoint-dir");
        }
        if (given.force()) {
            throw new UsageException("--force does not apply to resume");
        }
        JobDirectory dir = new JobDirectory(path);
        boolean hasCheckpoints = dir.names().stream().anyMatch(n -> n.matches("chk-\\d+\\.ckpt"));
        Optional<JobManifest> found = dir.manifest();
        if (found.isEmpty()) {
            throw new EnvironmentException(path + ": no job to resume: no " + JobManifest.FILE + " in it"
                    + (hasCheckpoints ? " (its checkpoints were written without one, by an older build or the library)"
                    : " (a run killed before it wrote one never started a job here); start a job with 'run"
                    + " --checkpoint-dir " + path + "'"));
        }
        JobManifest manifest = found.get();
        CliOptions job;
        try {
            job = CliOptions.parse(manifest.asArguments(), 0, modes, true);
        } catch (UsageException e) {
            throw new EnvironmentException(path.resolve(JobManifest.FILE) + ": not a valid job: " + e.getMessage());
        }
        String graph = CliJob.describe(job);
        if (!graph.equals(manifest.graph())) {
            throw new EnvironmentException(path.resolve(JobManifest.FILE) + ": its job graph '" + manifest.graph()
                    + "' is not the one this build runs for these options ('" + graph + "')");
        }
        if (job.simulation() && given.given().contains("--buffer-size")) {
            throw new UsageException("--buffer-size applies to --runtime threads only: job " + manifest.jobId()
                    + " in " + path + " runs in the simulation (buffers of one record)");
        }
        Map<String, String> mine = JobManifest.jobOptions(given);
        for (String option : given.given()) {
            String key = option.substring(2);
            if (CliOptions.PER_PROCESS.contains(option) || option.equals("--parallelism") || !mine.containsKey(key)) {
                continue;
            }
            if (!mine.get(key).equals(manifest.recorded(key))) {
                throw new UsageException(option + " " + mine.get(key) + " contradicts job " + manifest.jobId() + " in "
                        + path + " (" + key + " " + manifest.recorded(key) + "); a job's options are fixed when"
                        + " it starts: omit the option, or start a new job with run");
            }
        }
        int parallelism = given.given().contains("--parallelism") ? given.parallelism() : job.parallelism();
        boolean rescale = parallelism != job.parallelism();
        if (rescale) {
            refuseRescale(job, parallelism, manifest, path);
        }
        dir.lock();
        try {
            Optional<String> finished = dir.finished();
            if (finished.isPresent()) {
                String verdict = recordedVerdict(path, finished.get());
                out.println("job " + manifest.jobId() + " in " + path + " already finished (" + verdict
                        + "); nothing to resume. Start a new job with 'run --checkpoint-dir " + path + " --force'.");
                return HOLDS.contains(verdict) ? Main.OK : Main.VIOLATED;
            }
            CliOptions effective = new CliOptions(job.mode(), job.records(),
                    pick(given, "--interval-ms", given.intervalMs(), job.intervalMs()),
                    pick(given, "--sink-delay-us", given.sinkDelayMicros(), job.sinkDelayMicros()),
                    job.capacity(), job.failAfterCheckpoint(), job.seed(), job.simulation(), path, given.json(),
                    (int) pick(given, "--tolerable-failed-checkpoints", given.tolerableFailedCheckpoints(),
                            job.tolerableFailedCheckpoints()),
                    false, given.given(), job.endOfInput(), job.savepointEvery(), job.inputs(), job.output(),
                    job.bufferSize(), given.retain(), job.maxParallelism(), parallelism);
            if (rescale) {
                // from now on the job runs at the new parallelism; a checkpoint still at the old one
                // is restored rescaled (Rescaling), by this process or, after a crash, the next
                dir.writeManifest(new JobManifest(JobManifest.FORMAT_VERSION, manifest.jobId(), CliJob.describe(effective),
                        JobManifest.jobOptions(effective)));
                err.println("job " + manifest.jobId() + ": rescaling " + CliOptions.KEYED + " from " + job.parallelism()
                        + " to " + parallelism + " tasks on restore (max parallelism " + job.maxParallelism() + ")");
            }
            try (DirectoryLock output = JobOutput.lockResumed(effective, manifest.jobId(), hasCheckpoints)) {
                return Main.execute(effective, dir, manifest.jobId(), true, out, err, plugs);
            }
        } finally {
            dir.unlock();
        }
    }

    /**
     * Refuses, before anything in DIR changes, a rescale the engine cannot do: a parallelism above
     * the job's max parallelism, an exchange whose channel state cannot be redistributed
     * ({@link Rescaling#checkRescalable}: FORWARD, or BROADCAST into the keyed operator).
     */
    private static void refuseRescale(CliOptions job, int parallelism, JobManifest manifest, Path path)
            throws UsageException {
        if (parallelism > job.maxParallelism()) {
            throw new UsageException("--parallelism " + CliOptions.KEYED + "=" + parallelism + " exceeds the max parallelism "
                    + job.maxParallelism() + " of job " + manifest.jobId() + " in " + path
                    + ": every keyed task needs at least one key group");
        }
        try {
            // The job's shape only: a file job's sink writes nowhere here (the output is not touched).
            Rescaling.checkRescalable(CliJob.build(job, 0, p -> new MemorySinkDirectory()), CliOptions.KEYED, parallelism,
                    job.mode().oneInFlight());
        } catch (Rescaling.Refused e) {
            throw new UsageException(e.getMessage());
        }
    }

    /**
     * The verdict {@code FINISHED} records. A marker without a verdict this tool writes is damaged
     * (a torn copy, an edit): exit 3 naming it, since reading it as a violation (exit 1) would
     * report a verdict the job never had.
     */
    private static String recordedVerdict(Path dir, String finished) {
        String verdict = finished.lines().filter(l -> l.startsWith("verdict="))
                .map(l -> l.substring("verdict=".length())).findFirst().orElse(null);
        if (verdict == null || !(HOLDS.contains(verdict) || verdict.equals("verdict: VIOLATED"))) {
            throw new EnvironmentException(dir.resolve(JobDirectory.FINISHED) + ": damaged: "
                    + (verdict == null ? "no verdict line" : "unknown verdict '" + verdict + "'")
                    + "; the job finished, but its verdict cannot be read: start a new job with 'run --checkpoint-dir "
                    + dir + " --force'");
        }
        return verdict;
    }

    private static long pick(CliOptions given, String option, long mine, long manifest) {
        return given.given().contains(option) ? mine : manifest;
    }

}
