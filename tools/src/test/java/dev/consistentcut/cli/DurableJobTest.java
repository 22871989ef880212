package dev.consistentcut.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.checkpoint.CheckpointCodec;
import dev.consistentcut.checkpoint.CheckpointFiles;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.checkpoint.DirectoryCheckpointStore;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The durable job through the CLI: a job killed with SIGKILL resumes in a new process
 * and ends exactly-once; contradicting options, another job's directory or checkpoint, a missing
 * manifest and a directory in use are refused with a message; a resume of a finished job does not
 * run it again; a checkpoint tampered with is caught across the process boundary (the broken twin
 * of the resume check); a checkpoint directory that fails mid-run declines checkpoints and, past
 * {@code --tolerable-failed-checkpoints}, fails the job with a report instead of a stack trace.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class DurableJobTest {

    @TempDir
    Path tmp;

    record Outcome(int code, String out, String err) {
    }

    static Outcome cli(String... args) {
        return cli(line -> { }, args);
    }

    /** The CLI, with {@code onErrLine} called (on the writing thread) with each line written to stderr. */
    static Outcome cli(Consumer<String> onErrLine, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        OutputStream watched = new OutputStream() {
            private final ByteArrayOutputStream line = new ByteArrayOutputStream();

            @Override
            public synchronized void write(int b) {
                err.write(b);
                if (b == '\n') {
                    onErrLine.accept(line.toString(StandardCharsets.UTF_8));
                    line.reset();
                } else {
                    line.write(b);
                }
            }
        };
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(watched, true, StandardCharsets.UTF_8)) {
            int code = Main.run(args, o, e);
            return new Outcome(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        }
    }

    /** A small durable job in the simulation, run to its end in this process. */
    private Path finishedJob(String name) {
        Path dir = tmp.resolve(name);
        Outcome o = cli("run", "--mode", "unaligned", "--runtime", "simulation", "--records", "150", "--interval-ms",
                "1", "--capacity", "4", "--checkpoint-dir", dir.toString());
        assertEquals(0, o.code(), o.out() + o.err());
        assertTrue(Files.exists(dir.resolve("FINISHED")), "a finished job is marked");
        return dir;
    }

    /** As if the process had died after its last checkpoint: the job is not marked finished. */
    private static Path unfinished(Path dir) throws IOException {
        Files.delete(dir.resolve("FINISHED"));
        return dir;
    }

    private static void assertNoStackTrace(Outcome o) {
        assertFalse(o.err().contains("\tat ") || o.out().contains("\tat "), "no stack trace: " + o.err());
    }

    @Test
    void aJobKilledWithSigkillResumesInANewProcessAndEndsExactlyOnce() throws Exception {
        Path dir = tmp.resolve("job");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), Main.class.getName(),
                "run", "--mode", "unaligned", "--checkpoint-dir", dir.toString(), "--records", "20000",
                "--sink-delay-us", "50", "--interval-ms", "5")
                .redirectErrorStream(true).redirectOutput(tmp.resolve("first.log").toFile()).start();
        while (p.isAlive() && !hasCheckpoint(dir)) {
            Thread.sleep(20);
        }
        p.destroyForcibly(); // SIGKILL on Linux
        assertEquals(137, p.waitFor(), "killed mid-run: " + Files.readString(tmp.resolve("first.log")));
        assertFalse(Files.exists(dir.resolve("FINISHED")));

        Outcome inspect = cli("inspect", dir.toString());
        assertEquals(0, inspect.code(), inspect.err());
        assertTrue(inspect.out().contains("complete, checksum ok  <- resume uses this"), inspect.out());
        assertTrue(inspect.out().contains("state: not finished"), inspect.out());

        Outcome resumed = cli("resume", dir.toString());
        assertEquals(0, resumed.code(), resumed.out() + resumed.err());
        assertTrue(resumed.out().contains(" resumed from checkpoint "), resumed.out());
        assertTrue(resumed.out().contains("ExactlyOnceInv: holds"), resumed.out());
        assertTrue(resumed.out().endsWith("verdict: exactly-once holds\n"), resumed.out());

        Outcome again = cli("resume", dir.toString());
        assertEquals(0, again.code(), again.err());
        assertTrue(again.out().contains("already finished (verdict: exactly-once holds); nothing to resume"), again.out());

        Outcome json = cli("inspect", dir.toString(), "--json");
        assertEquals(0, json.code());
        assertTrue(json.out().startsWith("{\"directory\":"), json.out());
        assertTrue(json.out().contains("\"finished\":true") && json.out().contains("\"resumeUses\":true"), json.out());
    }

    private static boolean hasCheckpoint(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            return false;
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.anyMatch(f -> f.getFileName().toString().endsWith(".ckpt"));
        }
    }

    @Test
    void aResumedJobUsesItsManifestAndRefusesContradictingOptions() throws IOException {
        Path dir = unfinished(finishedJob("job"));
        Outcome records = cli("resume", dir.toString(), "--records", "10");
        assertEquals(2, records.code());
        assertTrue(records.err().startsWith("error: --records 10 contradicts job "), records.err());
        assertTrue(records.err().contains("(records 150)"), records.err());
        Outcome mode = cli("resume", dir.toString(), "--mode", "aligned");
        assertEquals(2, mode.code());
        assertTrue(mode.err().contains("--mode aligned contradicts job"), mode.err());
        Outcome dirOption = cli("resume", dir.toString(), "--checkpoint-dir", dir.toString());
        assertEquals(2, dirOption.code());

        Outcome sameAndPerProcess = cli("resume", dir.toString(), "--records", "150", "--interval-ms", "2");
        assertEquals(0, sameAndPerProcess.code(), sameAndPerProcess.out() + sameAndPerProcess.err());
        assertTrue(sameAndPerProcess.out().contains("150 records per source"), sameAndPerProcess.out());
    }

    @Test
    void runRefusesAJobsDirectoryUnlessForcedAndThenStartsANewJob() throws IOException {
        Path dir = finishedJob("job");
        String oldManifest = Files.readString(dir.resolve("MANIFEST"));
        Outcome o = cli("run", "--mode", "unaligned", "--runtime", "simulation", "--checkpoint-dir", dir.toString());
        assertEquals(2, o.code());
        assertTrue(o.err().contains("holds job ") && o.err().contains("(finished)") && o.err().contains("--force"), o.err());
        assertEquals(oldManifest, Files.readString(dir.resolve("MANIFEST")), "nothing overwritten");

        Outcome forced = cli("run", "--mode", "aligned", "--runtime", "simulation", "--records", "50",
                "--checkpoint-dir", dir.toString(), "--force");
        assertEquals(0, forced.code(), forced.err());
        assertFalse(oldManifest.equals(Files.readString(dir.resolve("MANIFEST"))), "a new job");

        Path foreign = Files.createDirectory(tmp.resolve("foreign"));
        Files.writeString(foreign.resolve("notes.txt"), "mine");
        Outcome refused = cli("run", "--mode", "aligned", "--checkpoint-dir", foreign.toString(), "--force");
        assertEquals(2, refused.code());
        assertTrue(refused.err().contains("holds no job of this tool (e.g. 'notes.txt')"), refused.err());
        assertTrue(Files.exists(foreign.resolve("notes.txt")));
    }

    @Test
    void aCheckpointOfAnotherJobIsNeverRestored() throws IOException {
        Path a = finishedJob("a");
        Path b = unfinished(finishedJob("b"));
        try (Stream<Path> s = Files.list(b)) {
            for (Path f : s.filter(f -> f.getFileName().toString().startsWith("chk-")).toList()) {
                Files.delete(f);
            }
        }
        Files.delete(b.resolve("LATEST"));
        Path aNewest;
        try (Stream<Path> s = Files.list(a)) {
            aNewest = s.filter(f -> f.getFileName().toString().endsWith(".ckpt")).max(Path::compareTo).orElseThrow();
        }
        byte[] bytes = Files.readAllBytes(aNewest);
        long id = CheckpointFiles.summarize(aNewest).id();
        Files.write(b.resolve(aNewest.getFileName()), bytes);

        Outcome inspect = cli("inspect", b.toString());
        assertTrue(inspect.out().contains("UNUSABLE: belongs to job "), inspect.out());
        assertTrue(inspect.out().contains("resume would start from the initial state"), inspect.out());

        Outcome o = cli("resume", b.toString());
        assertEquals(0, o.code(), o.out() + o.err());
        assertTrue(o.err().contains("chk-" + id + ".ckpt: belongs to job "), o.err());
        assertTrue(o.err().contains("resuming job ") && o.err().contains(" from the initial state"), o.err());
        assertTrue(o.out().endsWith("verdict: exactly-once holds\n"), o.out());
    }

    @Test
    void aTamperedCheckpointIsCaughtAcrossTheProcessBoundary() throws IOException {
        // Broken twin of the resume check: the newest checkpoint keeps its ledgers but its sources
        // start over, as a restore that lost the offsets would; the resumed run must say so.
        Path dir = unfinished(finishedJob("job"));
        String jobId = JobManifest.read(dir).jobId();
        Path newest;
        try (Stream<Path> s = Files.list(dir)) {
            newest = s.filter(f -> f.getFileName().toString().endsWith(".ckpt"))
                    .max((x, y) -> Long.compare(id(x), id(y))).orElseThrow();
        }
        CompletedCheckpoint c = new DirectoryCheckpointStore(dir, 3, w -> { }, jobId).latest().orElseThrow();
        assertEquals(id(newest), c.id());
        Map<String, Long> zero = new HashMap<>();
        c.sourceOffsets().keySet().forEach(k -> zero.put(k, 0L));
        Files.write(newest, CheckpointCodec.encode(
                new CompletedCheckpoint(c.id(), zero, c.taskSnapshots(), c.channelState(), c.stats()), jobId));

        Outcome o = cli("resume", dir.toString());
        assertEquals(1, o.code(), o.out() + o.err());
        assertTrue(o.out().contains("ExactlyOnceInv: VIOLATED ("), o.out());
        assertTrue(o.out().endsWith("verdict: VIOLATED\n"), o.out());
    }

    private static long id(Path checkpointFile) {
        String n = checkpointFile.getFileName().toString();
        return Long.parseLong(n.substring(4, n.length() - 5));
    }

    @Test
    void whatIsNoJobToResumeIsAnEnvironmentErrorNamingThePath() throws IOException {
        Outcome missing = cli("resume", tmp.resolve("nowhere").toString());
        assertEquals(3, missing.code());
        assertEquals("error: " + tmp.resolve("nowhere") + ": no such directory\n", missing.err());
        Path empty = Files.createDirectory(tmp.resolve("empty"));
        Outcome none = cli("resume", empty.toString());
        assertEquals(3, none.code());
        assertTrue(none.err().startsWith("error: " + empty + ": no job to resume: no MANIFEST in it"), none.err());
        Path job = finishedJob("job");
        Files.delete(job.resolve("MANIFEST"));
        Outcome noManifest = cli("resume", job.toString());
        assertEquals(3, noManifest.code());
        assertTrue(noManifest.err().contains("its checkpoints were written without one"), noManifest.err());
        Files.writeString(job.resolve("MANIFEST"), "format-version=9\njob-id=x\njob-graph=y\n");
        Outcome future = cli("resume", job.toString());
        assertEquals(3, future.code());
        assertTrue(future.err().contains("manifest format version 9, this build reads version 1"), future.err());
        Path killedEarly = Files.createDirectory(tmp.resolve("killed-early"));
        Files.writeString(killedEarly.resolve("LOCK"), "pid 1\n"); // a run killed before its manifest
        Outcome early = cli("resume", killedEarly.toString());
        assertEquals(3, early.code());
        assertTrue(early.err().contains("a run killed before it wrote one never started a job here"), early.err());
        Outcome rerun = cli("run", "--mode", "aligned", "--runtime", "simulation", "--records", "50",
                "--checkpoint-dir", killedEarly.toString());
        assertEquals(0, rerun.code(), "its leftovers do not block a new run: " + rerun.err());
        Outcome noDir = cli("inspect");
        assertEquals(2, noDir.code());
        assertNoStackTrace(future);
    }

    @Test
    void aDirectoryInUseByAnotherProcessIsRefused() throws IOException {
        Path dir = unfinished(finishedJob("job"));
        try (FileChannel ch = FileChannel.open(dir.resolve("LOCK"), StandardOpenOption.WRITE);
             FileLock held = ch.lock()) {
            Outcome o = cli("resume", dir.toString());
            assertEquals(3, o.code());
            assertTrue(o.err().startsWith("error: " + dir + ": in use by another process"), o.err());
            Outcome forced = cli("run", "--mode", "aligned", "--runtime", "simulation", "--checkpoint-dir",
                    dir.toString(), "--force");
            assertEquals(3, forced.code(), forced.err());
            assertTrue(Files.exists(dir.resolve("MANIFEST")), "--force deletes nothing of a job in use");
            assertTrue(held.isValid());
        }
    }

    @Test
    void aCheckpointDirectoryThatFailsMidRunDeclinesCheckpointsAndTheJobGoesOn() {
        // Root ignores file permissions (tests run as root here), so "read-only" is made real by
        // replacing the directory with a regular file: every write into it then fails. After the
        // second declined checkpoint the directory comes back, and the job ends exactly-once.
        Path dir = tmp.resolve("job");
        Path aside = tmp.resolve("job.aside");
        List<String> declined = new ArrayList<>();
        Outcome o = cli(line -> {
            try {
                if (line.startsWith("checkpoint 2 completed")) {
                    Files.move(dir, aside);
                    Files.writeString(dir, "not a directory any more");
                } else if (line.contains(" declined (aborted; the job goes on)") && declined.add(line) && declined.size() == 2) {
                    Files.delete(dir);
                    Files.move(aside, dir);
                }
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }, "run", "--mode", "aligned", "--runtime", "simulation", "--records", "300", "--interval-ms", "1",
                "--capacity", "4", "--checkpoint-dir", dir.toString(), "--tolerable-failed-checkpoints", "2");
        assertEquals(0, o.code(), o.out() + o.err());
        assertEquals(2, declined.size(), o.err());
        assertEquals(2, o.out().lines().filter(l -> l.startsWith("declined checkpoint ")).count(), o.out());
        assertTrue(o.out().contains("declined checkpoint 3: storing checkpoint 3 in " + dir), o.out());
        assertTrue(o.out().endsWith("verdict: exactly-once holds\n"), o.out());
        assertNoStackTrace(o);
    }

    @Test
    void moreConsecutiveFailedCheckpointsThanTolerableFailTheJobWithAReport() {
        Path dir = tmp.resolve("job");
        Outcome o = cli(line -> {
            try {
                if (line.startsWith("checkpoint 2 completed")) {
                    Files.move(dir, tmp.resolve("job.aside"));
                    Files.writeString(dir, "not a directory any more");
                }
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }, "run", "--mode", "unaligned", "--runtime", "simulation", "--records", "300", "--interval-ms", "1",
                "--capacity", "4", "--checkpoint-dir", dir.toString(), "--tolerable-failed-checkpoints", "1");
        assertEquals(3, o.code(), o.out() + o.err());
        assertTrue(o.out().startsWith("job FAILED: 2 consecutive checkpoint(s) failed to be stored, 1 tolerated"
                + " (--tolerable-failed-checkpoints); the last, checkpoint 4: storing checkpoint 4 in " + dir), o.out() + o.err());
        assertTrue(o.out().contains("  declined checkpoint 3: "), o.out());
        assertTrue(o.out().contains("continue it with 'resume " + dir + "'"), o.out());
        assertNoStackTrace(o);
    }
}
