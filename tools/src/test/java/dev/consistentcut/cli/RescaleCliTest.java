package dev.consistentcut.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.cli.DurableJobTest.Outcome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code resume DIR --parallelism count=N}: a durable job restored at a new parallelism of its
 * keyed count, by key group, keeps the exactly-once verdict and runs on at the new parallelism; a
 * rescale the engine cannot do is refused with exit 2 and leaves the directory as it was.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RescaleCliTest {

    @TempDir
    Path tmp;

    private static Outcome cli(String... args) {
        return DurableJobTest.cli(args);
    }

    /** A job run to its end, then made as if it had died part way: FINISHED and the newest checkpoint gone. */
    private static void crashedPartWay(Path dir) throws IOException {
        Files.delete(dir.resolve("FINISHED"));
        try (Stream<Path> s = Files.list(dir)) {
            java.util.List<Path> checkpoints = s.filter(f -> f.getFileName().toString().matches("chk-\\d+\\.ckpt"))
                    .sorted(Comparator.comparingLong(f -> Long.parseLong(f.getFileName().toString().replaceAll("\\D", ""))))
                    .toList();
            assertTrue(checkpoints.size() >= 2, "checkpoints: " + bytes(dir).keySet());
            Files.delete(checkpoints.get(checkpoints.size() - 1));
        }
    }

    private Path job(String mode, String runtime) {
        Path dir = tmp.resolve("job");
        Outcome o = cli("run", "--mode", mode, "--runtime", runtime, "--records", "200", "--interval-ms", "1",
                "--capacity", "4", "--sink-delay-us", "0", "--checkpoint-dir", dir.toString());
        assertEquals(0, o.code(), o.out() + o.err());
        return dir;
    }

    /** In the simulation; the threaded runtime restores the same way (RescaledRestoreTest runs both). */
    @Test
    void aJobRestoredAtThreeThenOneKeepsItsExactlyOnceVerdict() throws IOException {
        Path dir = job("aligned", "simulation");
        assertTrue(Files.readString(dir.resolve("MANIFEST")).contains("parallelism=count=2\n"));
        crashedPartWay(dir);

        Outcome up = cli("resume", dir.toString(), "--parallelism", "count=3");
        assertEquals(0, up.code(), up.out() + up.err());
        assertTrue(up.err().contains("rescaling count from 2 to 3 tasks on restore (max parallelism 128)"), up.err());
        assertTrue(up.out().endsWith("verdict: exactly-once holds\n"), up.out());
        assertTrue(Files.readString(dir.resolve("MANIFEST")).contains("parallelism=count=3\n"), "the job runs at 3 now");
        Outcome inspect = cli("inspect", dir.toString());
        assertTrue(inspect.out().contains("key groups (max parallelism 128): count#0 0-42 count#1 43-85 count#2 86-127"),
                inspect.out());

        crashedPartWay(dir);
        Outcome plain = cli("resume", dir.toString());
        assertEquals(0, plain.code(), plain.out() + plain.err());
        assertFalse(plain.err().contains("rescaling"), "a plain resume keeps the parallelism: " + plain.err());
        assertTrue(plain.out().endsWith("verdict: exactly-once holds\n"), plain.out());

        crashedPartWay(dir);
        Outcome down = cli("resume", dir.toString(), "--parallelism", "count=1");
        assertEquals(0, down.code(), down.out() + down.err());
        assertTrue(down.err().contains("rescaling count from 3 to 1 tasks"), down.err());
        assertTrue(down.out().endsWith("verdict: exactly-once holds\n"), down.out());
    }

    private static String sha256(byte[] bytes) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    /** Each file of {@code dir} by name, with the SHA-256 of its bytes. */
    private static Map<String, String> bytes(Path dir) throws IOException {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> s = Files.list(dir)) {
            for (Path f : s.toList()) {
                out.put(f.getFileName().toString(), sha256(Files.readAllBytes(f)));
            }
        }
        return out;
    }

    /** The in-flight records {@code inspect} lists for the checkpoint a resume of {@code dir} uses. */
    static long recordsResumeUses(Path dir) {
        Outcome inspect = cli("inspect", dir.toString());
        String line = inspect.out().lines().filter(l -> l.endsWith("<- resume uses this")).findFirst()
                .orElseThrow(() -> new AssertionError(inspect.out()));
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(" (\\d+) records ").matcher(line);
        assertTrue(m.find(), line);
        return Long.parseLong(m.group(1));
    }

    /**
     * An unaligned job whose checkpoints hold in-flight records (asserted, so the test cannot pass
     * without redistributing them), rescaled to 3 and then to 1, each time from a checkpoint
     * that stored in-flight records: exactly-once each time.
     */
    @Test
    void anUnalignedJobWithInFlightRecordsRestoredAtThreeThenOneKeepsItsExactlyOnceVerdict() throws IOException {
        Path dir = job("unaligned", "simulation");
        crashedPartWay(dir);
        assertTrue(recordsResumeUses(dir) > 0, "the checkpoint restored at 3 stores in-flight records");
        Outcome up = cli("resume", dir.toString(), "--parallelism", "count=3");
        assertEquals(0, up.code(), up.out() + up.err());
        assertTrue(up.err().contains("rescaling count from 2 to 3 tasks on restore"), up.err());
        assertTrue(up.out().endsWith("verdict: exactly-once holds\n"), up.out());
        crashedPartWay(dir);
        assertTrue(Files.readString(dir.resolve("MANIFEST")).contains("parallelism=count=3\n"), "the job runs at 3 now");
        assertTrue(recordsResumeUses(dir) > 0, "the checkpoint restored at 1 stores in-flight records");
        Outcome down = cli("resume", dir.toString(), "--parallelism", "count=1");
        assertEquals(0, down.code(), down.out() + down.err());
        assertTrue(down.out().endsWith("verdict: exactly-once holds\n"), down.out());
    }

    @Test
    void aRescaleTheEngineCannotDoIsRefusedAndChangesNothing() throws IOException {
        Path dir = job("unaligned", "simulation");
        crashedPartWay(dir);
        Map<String, String> before = bytes(dir);

        Outcome tooMany = cli("resume", dir.toString(), "--parallelism", "count=129");
        assertEquals(2, tooMany.code());
        assertTrue(tooMany.err().startsWith("error: --parallelism count=129 exceeds the max parallelism 128 of job "),
                tooMany.err());
        assertEquals(before, bytes(dir));

        Outcome sink = cli("resume", dir.toString(), "--parallelism", "sink=2");
        assertEquals(2, sink.code());
        assertEquals(before, bytes(dir));
    }

    @Test
    void runRefusesAKeyedParallelismAboveTheMaxParallelism() {
        Outcome o = cli("run", "--mode", "aligned", "--runtime", "simulation", "--records", "10",
                "--max-parallelism", "2", "--parallelism", "count=3");
        assertEquals(2, o.code());
        assertEquals("error: --parallelism count=3 exceeds the max parallelism 2: every keyed task needs at least one"
                + " key group", o.err().lines().findFirst().orElseThrow());
        Outcome bad = cli("run", "--mode", "aligned", "--max-parallelism", "0");
        assertEquals(2, bad.code());
        assertEquals("error: --max-parallelism must be between 1 and 32768, got 0", bad.err().lines().findFirst().orElseThrow());
    }
}
