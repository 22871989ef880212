package dev.consistentcut.stress.broken;

import dev.consistentcut.checkpoint.AckResult;
import dev.consistentcut.checkpoint.CheckpointStats;
import dev.consistentcut.checkpoint.CheckpointStatus;
import dev.consistentcut.checkpoint.CheckpointStore;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.stress.harness.CoordinatorUnderTest;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * DELIBERATELY BROKEN: the coordinator's decisions without its lock. Each operation checks the
 * status and then acts (check-then-act), so a completion and an abort (or a failure, or a second
 * completion) that interleave can both succeed: a checkpoint completed and aborted, or stored
 * twice. The fields are thread-safe one by one (volatile, concurrent sets), so what the stress
 * tests catch is the missing atomicity, not a torn data structure. It exists only to show that the
 * {@code Coordinator_...} tests catch this bug. Never use it otherwise.
 */
public final class BrokenUnlockedCoordinator implements CoordinatorUnderTest {

    private final Set<String> tasks;
    private final CheckpointStore store;
    private final Map<Long, Attempt> attempts = new ConcurrentHashMap<>();
    private volatile long lastId;

    private static final class Attempt {
        volatile CheckpointStatus status = CheckpointStatus.PENDING;
        volatile boolean discarded;
        final Set<String> acknowledged = ConcurrentHashMap.newKeySet();
    }

    public BrokenUnlockedCoordinator(Set<String> tasks, CheckpointStore store) {
        this.tasks = Set.copyOf(tasks);
        this.store = store;
    }

    @Override
    public long trigger() {
        long id = ++lastId;
        attempts.put(id, new Attempt());
        return id;
    }

    /** Same answers and exceptions as the engine's coordinator; only the atomicity is missing. */
    @Override
    public AckResult acknowledge(String task, long id) {
        Attempt a = attempts.get(id);
        if (!tasks.contains(task) || a == null) {
            throw new IllegalArgumentException("unknown task " + task + " or checkpoint " + id);
        }
        if (a.discarded) {
            return AckResult.IGNORED_DISCARDED;
        }
        if (!a.acknowledged.add(task)) {
            throw new IllegalStateException("duplicate acknowledgement from task " + task + " for checkpoint " + id);
        }
        if (a.status == CheckpointStatus.ABORTED) {
            return AckResult.IGNORED_ABORTED;
        }
        return a.acknowledged.containsAll(tasks) ? AckResult.ALL_ACKNOWLEDGED : AckResult.ACCEPTED;
    }

    @Override
    public boolean complete(long id) {
        Attempt a = attempts.get(id);
        if (a == null || a.status != CheckpointStatus.PENDING || a.discarded || !a.acknowledged.containsAll(tasks)) {
            return false;
        }
        // THE BUG: another thread may abort, fail or complete between the check above and here.
        store.store(new CompletedCheckpoint(id, offsets(), Map.of(), Map.of(),
                new CheckpointStats(0, 0, Map.of(), Map.of(), 0, 0, 0)));
        a.status = CheckpointStatus.COMPLETED;
        return true;
    }

    private Map<String, Long> offsets() {
        Map<String, Long> offsets = new java.util.HashMap<>();
        for (String t : tasks) {
            offsets.put(t, 0L);
        }
        return offsets;
    }

    @Override
    public boolean abort(long id) {
        Attempt a = attempts.get(id);
        if (a == null || a.status != CheckpointStatus.PENDING) {
            return false;
        }
        a.status = CheckpointStatus.ABORTED;
        return true;
    }

    @Override
    public long failAndRestore() {
        for (Attempt a : attempts.values()) {
            if (a.status == CheckpointStatus.PENDING) {
                a.status = CheckpointStatus.ABORTED;
            }
            if (a.status != CheckpointStatus.COMPLETED) {
                a.discarded = true;
            }
        }
        return store.latest().map(CompletedCheckpoint::id).orElse(0L);
    }

    @Override
    public CheckpointStatus status(long id) {
        Attempt a = attempts.get(id);
        return a == null ? CheckpointStatus.NONE : a.status;
    }

    @Override
    public long latestStoredId() {
        return store.latest().map(CompletedCheckpoint::id).orElse(0L);
    }
}
