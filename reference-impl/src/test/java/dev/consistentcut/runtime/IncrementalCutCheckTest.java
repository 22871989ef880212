package dev.consistentcut.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.barrier.BrokenHandlers;
import dev.consistentcut.check.CutInvariants;
import dev.consistentcut.check.Violation;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.PhysicalGraph;
import dev.consistentcut.message.Record;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The cut check of a checkpoint that starts from an earlier one that held ({@link
 * CutInvariants#consistentCut(CompletedCheckpoint, CompletedCheckpoint)}, what the completion
 * checks do) finds exactly the violations of the whole check: over seeded simulation runs of the
 * shipped modes with failures and restores, and of broken twins that do violate the cut, against
 * the previous checkpoint and against a random earlier one that held.
 */
class IncrementalCutCheckTest {

    private static final int RUNS = 400;

    @Test
    void theCheckFromAnEarlierCheckpointThatHeldGivesTheWholeCheckVerdict() {
        int compared = 0;
        int violating = 0;
        int forgedViolating = 0;
        for (long seed = 0; seed < RUNS; seed++) {
            BarrierMode mode = switch ((int) (seed % 4)) {
                case 0 -> BarrierHandlers.aligned();
                case 1 -> BarrierHandlers.unaligned();
                case 2 -> BrokenHandlers.alignedWithoutBlocking();
                default -> BrokenHandlers.unalignedForgettingInFlight();
            };
            // the broken twins on the demo job (one input per task: a twin need not handle more)
            Topologies.Topology topology = Topologies.ALL.get(seed % 4 < 2 ? (int) (seed / 4 % Topologies.ALL.size()) : 0);
            JobGraph job = topology.build().apply(seed);
            // the twins without failures: a restore puts a twin's handler states where it does not expect them
            RunOptions options = seed % 4 < 2 ? SimulationRuntimeTest.withFailures(seed).build()
                    : RunOptions.builder().seed(seed).maxSteps(200_000).maxCheckpoints(6).triggerProbability(0.08).build();
            SimulationRuntime run = new SimulationRuntime(job, mode, options);
            run.run();
            CutInvariants invariants = new CutInvariants(PhysicalGraph.of(job));
            List<CompletedCheckpoint> held = new ArrayList<>();
            Random pick = new Random(seed);
            for (CompletedCheckpoint c : run.completedCheckpoints()) {
                List<Violation> whole = invariants.consistentCut(c);
                List<Violation> wholeNoSkip = invariants.noSkip(c);
                if (!held.isEmpty()) {
                    for (CompletedCheckpoint from : List.of(held.get(held.size() - 1), held.get(pick.nextInt(held.size())))) {
                        String where = "seed " + seed + ", " + topology + ", " + mode.name() + ", checkpoint " + c.id()
                                + " from " + from.id();
                        assertEquals(messages(whole), messages(invariants.consistentCut(c, from)), where);
                        assertEquals(messages(wholeNoSkip), messages(invariants.noSkip(c, from)), where);
                        compared++;
                        violating += whole.isEmpty() ? 0 : 1;
                    }
                }
                if (whole.isEmpty() && !held.isEmpty()) {
                    // a forged twin of c that counts an old record twice downstream
                    CompletedCheckpoint from = held.get(held.size() - 1);
                    CompletedCheckpoint forged = withAnOldRecordPersisted(c, from, invariants.universe());
                    if (forged != null) {
                        List<Violation> forgedWhole = invariants.consistentCut(forged);
                        assertEquals(messages(forgedWhole), messages(invariants.consistentCut(forged, from)),
                                "seed " + seed + ", checkpoint " + c.id() + " forged, from " + from.id());
                        forgedViolating += forgedWhole.isEmpty() ? 0 : 1;
                    }
                }
                if (whole.isEmpty()) {
                    held.add(c);
                }
            }
        }
        assertTrue(compared > RUNS, "checks compared: " + compared);
        assertTrue(violating > 10, "comparisons of a violating checkpoint: " + violating);
        assertTrue(forgedViolating > 10, "comparisons of a forged violating checkpoint: " + forgedViolating);
    }

    /**
     * {@code c} with one more record persisted on a channel: an older record of the same source
     * and key as one persisted there (so on the same route), already in {@code from}'s cut; null
     * if there is none. Counted twice downstream, it changed neither ledger nor cut since {@code from}.
     */
    private static CompletedCheckpoint withAnOldRecordPersisted(CompletedCheckpoint c, CompletedCheckpoint from,
                                                                List<Record> universe) {
        for (var e : new TreeMap<>(c.channelState()).entrySet()) {
            for (Record persisted : e.getValue()) {
                long cut = from.sourceOffsets().getOrDefault(persisted.id().source(), 0L);
                for (Record old : universe) {
                    if (old.id().source().equals(persisted.id().source()) && old.key() == persisted.key()
                            && old.id().offset() < cut) {
                        Map<String, List<Record>> channels = new HashMap<>(c.channelState());
                        List<Record> more = new ArrayList<>(e.getValue());
                        more.add(old);
                        channels.put(e.getKey(), more);
                        return new CompletedCheckpoint(c.id(), c.sourceOffsets(), c.taskSnapshots(), channels, c.stats());
                    }
                }
            }
        }
        return null;
    }

    private static List<String> messages(List<Violation> violations) {
        return violations.stream().map(Violation::message).toList();
    }
}
