package dev.consistentcut.stress.lincheck;

import dev.consistentcut.checkpoint.AckResult;
import dev.consistentcut.checkpoint.CheckpointStatus;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The sequential specification of {@link dev.consistentcut.checkpoint.CheckpointCoordinator},
 * written from its contract (docs/vocabulary.md and the API contract) and nothing else, for two
 * tasks {@code a} and {@code b} (task parameter 0, 1; 2 names an unknown task) and
 * {@link #MAX_CONCURRENT} checkpoints in flight:
 * <ul>
 *   <li><em>in flight</em>: triggered, not yet acknowledged by every task, not discarded by a
 *       failure; an aborted checkpoint stays in flight until every task acknowledged it;
 *   <li>trigger: the next id (never reused) unless {@link #MAX_CONCURRENT} are in flight;
 *   <li>acknowledge: unknown task or never-triggered id: IllegalArgumentException; discarded:
 *       IGNORED_DISCARDED; a second ack of one task: IllegalStateException; aborted:
 *       IGNORED_ABORTED; else ACCEPTED, or ALL_ACKNOWLEDGED for the last one;
 *   <li>complete: PENDING and acknowledged by all: COMPLETED, stored, the latest; abort: PENDING
 *       to ABORTED; failAndRestore: PENDING to ABORTED, every uncompleted one discarded, returns
 *       the latest completed.
 * </ul>
 * Results are plain values (exceptions as their simple class name) so that lincheck compares
 * them with {@code equals}. Not thread-safe: lincheck runs it sequentially.
 */
public class CoordinatorModel {

    static final int MAX_CONCURRENT = 2;
    static final String[] TASKS = {"a", "b", "nobody"};
    static final Set<String> KNOWN = Set.of("a", "b");

    private static final class Attempt {
        CheckpointStatus status = CheckpointStatus.PENDING;
        boolean discarded;
        final Set<String> acked = new HashSet<>();

        boolean inFlight() {
            return !discarded && !acked.containsAll(KNOWN);
        }
    }

    private final Map<Long, Attempt> attempts = new TreeMap<>();
    private final List<Long> completed = new ArrayList<>();
    private long lastId;
    private long latest;

    public CoordinatorModel() {
    }

    /**
     * The spec with checkpoint 1 triggered and acknowledged by both tasks before any operation, as
     * the broken-twin test sets it up: every scenario then races completion, abort and failure.
     */
    public static class OneAcknowledged extends CoordinatorModel {
        public OneAcknowledged() {
            trigger();
            acknowledge(0, 1);
            acknowledge(1, 1);
        }
    }

    public long trigger() {
        long inFlight = attempts.values().stream().filter(Attempt::inFlight).count();
        if (inFlight >= MAX_CONCURRENT) {
            return -1;
        }
        attempts.put(++lastId, new Attempt());
        return lastId;
    }

    public long nextBarrierFor(int task) {
        String t = TASKS[task];
        if (!KNOWN.contains(t)) {
            return -2; // the engine throws; see LincheckOps.nextBarrierFor
        }
        for (Map.Entry<Long, Attempt> e : attempts.entrySet()) {
            if (e.getValue().inFlight() && !e.getValue().acked.contains(t)) {
                return e.getKey();
            }
        }
        return -1;
    }

    public String acknowledge(int task, int id) {
        String t = TASKS[task];
        Attempt a = attempts.get((long) id);
        if (!KNOWN.contains(t) || a == null) {
            return "IllegalArgumentException";
        }
        if (a.discarded) {
            return AckResult.IGNORED_DISCARDED.name();
        }
        if (a.acked.contains(t)) {
            return "IllegalStateException";
        }
        a.acked.add(t);
        if (a.status == CheckpointStatus.ABORTED) {
            return AckResult.IGNORED_ABORTED.name();
        }
        return (a.acked.containsAll(KNOWN) ? AckResult.ALL_ACKNOWLEDGED : AckResult.ACCEPTED).name();
    }

    public boolean complete(int id) {
        Attempt a = attempts.get((long) id);
        if (a == null || a.status != CheckpointStatus.PENDING || a.discarded || !a.acked.containsAll(KNOWN)) {
            return false;
        }
        a.status = CheckpointStatus.COMPLETED;
        completed.add((long) id);
        latest = Math.max(latest, id);
        return true;
    }

    public boolean complete() {
        return complete(1);
    }

    public boolean abort(int id) {
        Attempt a = attempts.get((long) id);
        if (a == null || a.status != CheckpointStatus.PENDING) {
            return false;
        }
        a.status = CheckpointStatus.ABORTED;
        return true;
    }

    public boolean abort() {
        return abort(1);
    }

    public long failAndRestore() {
        for (Attempt a : attempts.values()) {
            if (a.status == CheckpointStatus.PENDING) {
                a.status = CheckpointStatus.ABORTED;
            }
            if (a.status != CheckpointStatus.COMPLETED) {
                a.discarded = true;
            }
        }
        return latest;
    }

    public long latestCompleted() {
        return latest;
    }

    public CheckpointStatus status(int id) {
        Attempt a = attempts.get((long) id);
        return a == null ? CheckpointStatus.NONE : a.status;
    }

    public CheckpointStatus status() {
        return status(1);
    }

    public List<Long> inFlight() {
        List<Long> ids = new ArrayList<>();
        attempts.forEach((id, a) -> {
            if (a.inFlight()) {
                ids.add(id);
            }
        });
        return ids;
    }

    /** In completion order. */
    public List<Long> completedIds() {
        return new ArrayList<>(completed);
    }
}
