package dev.consistentcut.stress.properties;

import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;
import static org.quicktheories.generators.SourceDSL.longs;

import java.util.List;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/** QuickTheories generators of jobs and simulation cases, built from numbers that shrink. */
final class Generators {

    private Generators() {
    }

    private static Gen<List<Integer>> ints(int size, int min, int max) {
        return lists().of(integers().between(min, max)).ofSize(size);
    }

    /** Random acyclic jobs; see {@link Blueprint#build}. */
    static Gen<Blueprint> blueprints() {
        Gen<int[]> counts = integers().between(1, 3).zip(integers().between(1, 4), (s, o) -> new int[] {s, o});
        Gen<List<List<Integer>>> nodes = ints(3, 1, 2).zip(ints(6, 0, 6), ints(4, 1, 2), ints(4, 0, 2),
                (sp, len, op, kind) -> List.of(sp, len, op, kind));
        Gen<List<List<Integer>>> wiring = ints(4, 0, 127).zip(ints(16, 0, 2), ints(16, 1, 3),
                (masks, parts, caps) -> List.of(masks, parts, caps));
        return counts.zip(nodes, wiring, longs().between(0, 1_000_000), (c, n, w, logSeed) -> Blueprint.build(
                c[0], c[1], n.get(0), n.get(1), n.get(2), n.get(3), w.get(0), w.get(1), w.get(2), logSeed));
    }

    /**
     * Random acyclic jobs for the rescaling property: longer logs (0-40 records per source
     * instance), so that checkpoints complete before a crash, sums and joins twice as likely as
     * counts and maps, and edges mostly HASH (7 in 9), so that operators with state are often
     * rescalable.
     */
    static Gen<Blueprint> rescalableBlueprints() {
        Gen<int[]> counts = integers().between(1, 3).zip(integers().between(1, 4), (s, o) -> new int[] {s, o});
        Gen<List<Integer>> kinds = ints(4, 0, 5).map(l -> l.stream().map(k -> k > 3 ? k - 3 : k).toList()); // 4 sum, 5 join
        Gen<List<List<Integer>>> nodes = ints(3, 1, 2).zip(ints(6, 0, 40), ints(4, 1, 2), kinds,
                (sp, len, op, kind) -> List.of(sp, len, op, kind));
        Gen<List<List<Integer>>> wiring = ints(4, 0, 127).zip(ints(16, 0, 8), ints(16, 1, 3),
                (masks, parts, caps) -> List.of(masks, parts, caps));
        return counts.zip(nodes, wiring, longs().between(0, 1_000_000), (c, n, w, logSeed) -> Blueprint.build(
                c[0], c[1], n.get(0), n.get(1), n.get(2), n.get(3), w.get(0), w.get(1), w.get(2), logSeed));
    }

    /** Cases with any number of failures (0-3 at random steps, maybe one at a given step or after a checkpoint). */
    static Gen<SimulationCase> cases() {
        Gen<int[]> failures = integers().between(0, 3).zip(integers().between(-1, 150), integers().between(0, 2),
                (random, atStep, afterCheckpoint) -> new int[] {random, atStep, afterCheckpoint});
        Gen<int[]> checkpoints = integers().between(1, 2).zip(integers().between(0, 1), (concurrent, aborts) -> new int[] {concurrent, aborts});
        return blueprints().zip(longs().all(), failures, checkpoints, (job, seed, f, c) -> new SimulationCase(
                job, seed, f[0], f[1], f[2], c[0], c[1] * 0.01));
    }

    /** Cases with one checkpoint in flight that restore at least once, right after the first completed checkpoint. */
    static Gen<SimulationCase> casesRestoringACheckpoint() {
        return cases().map(c -> new SimulationCase(c.job(), c.seed(), c.maxFailures(), c.failAtStep(), 1,
                1, c.abortProbability()));
    }

    /**
     * Cases with at most one checkpoint in flight. A broken aligned handler that does not block
     * would otherwise let a second checkpoint's barrier reach a task still aligning the first,
     * which every handler rejects loudly, before the bug under test shows.
     */
    static Gen<SimulationCase> casesOneCheckpointInFlight() {
        return cases().map(c -> new SimulationCase(c.job(), c.seed(), c.maxFailures(), c.failAtStep(),
                c.failAfterCheckpoint(), 1, c.abortProbability()));
    }

    /** A second, independent simulation seed. */
    static Gen<Long> seeds() {
        return longs().all();
    }

    static <T> Gen<T> constant(T value) {
        return Generate.constant(value);
    }
}
