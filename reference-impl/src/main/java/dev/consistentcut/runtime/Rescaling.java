package dev.consistentcut.runtime;

import dev.consistentcut.annotation.TestSeam;
import dev.consistentcut.checkpoint.CheckpointStore;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.checkpoint.MaterialisedUploads;
import dev.consistentcut.checkpoint.TaskSnapshot;
import dev.consistentcut.graph.JobGraph;
import dev.consistentcut.graph.KeyGroups;
import dev.consistentcut.graph.NodeKind;
import dev.consistentcut.graph.Partitioning;
import dev.consistentcut.graph.PhysicalGraph;
import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import dev.consistentcut.operator.KeyGroupedState;
import dev.consistentcut.operator.Operator;
import dev.consistentcut.operator.SplitListState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Restore with a new parallelism (spec/rescale/RescaleRestore.tla): a checkpoint taken while an
 * operator ran at one parallelism, restored into a job graph where it has another. A checkpoint
 * says its own parallelism (the operator's task snapshots), so every restore compares it with the
 * graph's and rescales when they differ: {@link #assignKeyGroups} gives each new task exactly the
 * key groups of its new range, gathered whole from the old tasks (state and processed-record
 * ledger), or, for an operator whose state is not keyed, its share of the old tasks' list state
 * ({@link ListStateSplit}); {@link #redistributeChannelState} puts every stored in-flight record of a channel into
 * or out of a rescaled operator on the new channel its key group's route takes (FLINK-19533 /
 * FLINK-19801's rescaling descriptors); {@link #restoreRescaled} is the checkpoint the new tasks
 * restore. Flink does the same with {@code StateAssignmentOperation}.
 *
 * <p>An operator can be rescaled when its state is keyed ({@link KeyGroupedState}) or a split list
 * ({@link SplitListState}), every in-edge is HASH and no edge of it is FORWARD; anything else is refused ({@link Refused}), as Flink
 * refuses channel state it cannot redistribute (FLINK-35351, FLINK-22815 for broadcast).
 * Stateless and thread-safe.
 */
public final class Rescaling {

    /** Where a rescaled restore puts a key: the new task of {@code parallelism} that owns it. */
    @FunctionalInterface
    public interface Placement {
        int task(long key, int parallelism, int maxParallelism);
    }

    /** The correct placement: the owner of the key's key group ({@link KeyGroups#ownerOfKey}). */
    public static final Placement KEY_GROUPS = KeyGroups::ownerOfKey;

    /** A rescale the engine cannot do; the message is one line that says why. */
    public static final class Refused extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        public Refused(String message) {
            super(message);
        }
    }

    private Rescaling() {
    }

    /** Per operator node, the parallelism {@code checkpoint} was taken at (its task snapshots). */
    public static Map<String, Integer> parallelismOf(CompletedCheckpoint checkpoint, JobGraph job) {
        Map<String, Integer> out = new LinkedHashMap<>();
        for (JobGraph.Node n : job.nodes()) {
            if (n.kind() == NodeKind.OPERATOR) {
                int p = 0;
                while (checkpoint.taskSnapshots().containsKey(PhysicalGraph.taskId(n.name(), p))) {
                    p++;
                }
                out.put(n.name(), p);
            }
        }
        return out;
    }

    /**
     * Refuses a rescale of {@code node} to {@code newParallelism} in {@code job} that the engine
     * cannot do; {@code overtaking}: the checkpoints store in-flight records (unaligned).
     */
    public static void checkRescalable(JobGraph job, String node, int newParallelism, boolean overtaking) {
        JobGraph.Node n = job.node(node);
        if (n.kind() != NodeKind.OPERATOR) {
            throw new Refused("cannot rescale '" + node + "': a source's parallelism is its number of logs");
        }
        for (JobGraph.Edge e : job.edges()) {
            if ((e.from().equals(node) || e.to().equals(node)) && e.partitioning() == Partitioning.FORWARD) {
                throw new Refused("cannot rescale '" + node + "': its FORWARD edge " + e.name()
                        + " pins channel i to instance i, so its channel state cannot be redistributed");
            }
            if (e.to().equals(node) && e.partitioning() == Partitioning.BROADCAST) {
                throw new Refused("cannot rescale '" + node + "': its BROADCAST in-edge " + e.name()
                        + (overtaking ? " carries in-flight records that tasks saw at different rates, so its state"
                        + " cannot be split by key group" : " gives every task every key, so its state is not keyed"));
            }
        }
        Operator op = n.operatorFactory().get();
        if (!(op instanceof KeyGroupedState) && !(op instanceof SplitListState)) {
            throw new Refused("cannot rescale '" + node + "': its operator " + op.getClass().getSimpleName()
                    + " has neither keyed state to split by key group nor list state to split among its tasks");
        }
        if (newParallelism < 1 || newParallelism > job.maxParallelism()) {
            throw new Refused("cannot rescale '" + node + "' to " + newParallelism + ": the parallelism must be in 1.."
                    + job.maxParallelism() + " (the max parallelism)");
        }
    }

    /**
     * The spec's {@code RestoreRescaled}: {@code checkpoint} as the tasks of {@code job} restore
     * it; {@code checkpoint} itself when its parallelism is the graph's.
     */
    public static CompletedCheckpoint restoreRescaled(CompletedCheckpoint checkpoint, JobGraph job) {
        return restoreRescaled(checkpoint, job, RescaleObserver.NONE);
    }

    /**
     * {@link #restoreRescaled(CompletedCheckpoint, JobGraph)} telling {@code observer} each step
     * with what it computed (the rescale trace); nothing is told when the parallelism is the
     * graph's (no rescale).
     */
    public static CompletedCheckpoint restoreRescaled(CompletedCheckpoint checkpoint, JobGraph job,
                                                      RescaleObserver observer) {
        return restoreRescaled(checkpoint, job, KEY_GROUPS, KEY_GROUP_ROUTE, observer);
    }

    /** {@link #restoreRescaled(CompletedCheckpoint, JobGraph)} with another placement: the broken twins' seam. */
    @TestSeam
    public static CompletedCheckpoint restoreRescaled(CompletedCheckpoint checkpoint, JobGraph job, Placement placement) {
        return restoreRescaled(checkpoint, job, placement, KEY_GROUP_ROUTE);
    }

    /** {@link #restoreRescaled(CompletedCheckpoint, JobGraph)} with another placement and channel route: the broken twins' seam. */
    @TestSeam
    public static CompletedCheckpoint restoreRescaled(CompletedCheckpoint checkpoint, JobGraph job, Placement placement,
                                                      ChannelRoute route) {
        return restoreRescaled(checkpoint, job, placement, route, ListStateSplit.SPLIT, RescaleObserver.NONE);
    }

    /** {@link #restoreRescaled(CompletedCheckpoint, JobGraph, RescaleObserver)} with another placement and channel route: the broken twins' traces' seam. */
    @TestSeam
    public static CompletedCheckpoint restoreRescaled(CompletedCheckpoint checkpoint, JobGraph job, Placement placement,
                                                      ChannelRoute route, RescaleObserver observer) {
        return restoreRescaled(checkpoint, job, placement, route, ListStateSplit.SPLIT, observer);
    }

    /** {@link #restoreRescaled(CompletedCheckpoint, JobGraph)} with another placement, channel route and redistribution of list state: the broken twins' seam. */
    @TestSeam
    public static CompletedCheckpoint restoreRescaled(CompletedCheckpoint checkpoint, JobGraph job, Placement placement,
                                                      ChannelRoute route, ListStateSplit.Redistribution lists) {
        return restoreRescaled(checkpoint, job, placement, route, lists, RescaleObserver.NONE);
    }

    private static CompletedCheckpoint restoreRescaled(CompletedCheckpoint checkpoint, JobGraph job, Placement placement,
                                                       ChannelRoute route, ListStateSplit.Redistribution lists,
                                                       RescaleObserver observer) {
        Map<String, Integer> old = parallelismOf(checkpoint, job);
        Map<String, Integer> rescaled = new LinkedHashMap<>();
        for (Map.Entry<String, Integer> e : old.entrySet()) {
            int now = job.node(e.getKey()).parallelism();
            if (e.getValue() != now) {
                if (e.getValue() == 0) {
                    throw new IllegalStateException("checkpoint " + checkpoint.id() + " has no snapshot of operator "
                            + PhysicalGraph.taskId(e.getKey(), 0));
                }
                rescaled.put(e.getKey(), e.getValue());
                checkRescalable(job, e.getKey(), now, !checkpoint.channelState().isEmpty());
            }
        }
        if (rescaled.isEmpty()) {
            return checkpoint;
        }
        PhysicalGraph graph = PhysicalGraph.of(job);
        JobGraph oldJob = job;
        for (Map.Entry<String, Integer> e : rescaled.entrySet()) {
            oldJob = oldJob.withParallelism(e.getKey(), e.getValue());
        }
        observer.checkpointRead(checkpoint, rescaled);
        Map<String, TaskSnapshot> snapshots = assignKeyGroups(checkpoint, job, rescaled.keySet(), graph, placement, lists);
        observer.assignKeyGroups(newSnapshotsOf(snapshots, rescaled.keySet()));
        Map<String, String> listSenders = new HashMap<>();
        for (Map.Entry<String, Integer> e : rescaled.entrySet()) {
            if (job.node(e.getKey()).operatorFactory().get() instanceof SplitListState) {
                listSenders.putAll(ListStateSplit.newHolders(e.getKey(), e.getValue(), job.node(e.getKey()).parallelism(),
                        lists));
            }
        }
        Map<String, List<Record>> channels = redistributeChannelState(checkpoint, rescaled.keySet(),
                PhysicalGraph.of(oldJob), graph, route, listSenders);
        observer.redistributeChannelState(channels);
        CompletedCheckpoint restored = new CompletedCheckpoint(checkpoint.id(), checkpoint.sourceOffsets(), snapshots,
                channels, checkpoint.stats());
        observer.restoreRescaled(restored);
        return restored;
    }

    /** The snapshots of the rescaled operators' tasks among {@code snapshots}. */
    private static Map<String, TaskSnapshot> newSnapshotsOf(Map<String, TaskSnapshot> snapshots, Set<String> rescaled) {
        Map<String, TaskSnapshot> out = new java.util.TreeMap<>();
        snapshots.forEach((task, s) -> {
            if (rescaled.contains(node(task))) {
                out.put(task, s);
            }
        });
        return out;
    }

    /**
     * The spec's {@code AssignKeyGroups}: each new task of a rescaled operator gets the part of
     * every old task's state and ledger whose keys it now owns (whole key groups), or, of an
     * operator with list state, the elements {@code lists} gives it; every other task keeps its
     * snapshot.
     */
    static Map<String, TaskSnapshot> assignKeyGroups(CompletedCheckpoint checkpoint, JobGraph job, Set<String> rescaled,
                                                     PhysicalGraph graph, Placement placement,
                                                     ListStateSplit.Redistribution lists) {
        Map<String, TaskSnapshot> out = new HashMap<>();
        checkpoint.taskSnapshots().forEach((task, s) -> {
            if (!rescaled.contains(node(task))) {
                out.put(task, s);
            }
        });
        for (String node : rescaled) {
            int p = job.node(node).parallelism();
            int m = job.maxParallelism();
            Operator op = job.node(node).operatorFactory().get();
            if (op instanceof SplitListState list) {
                out.putAll(ListStateSplit.assign(checkpoint, node, p, list, lists));
                continue;
            }
            KeyGroupedState state = (KeyGroupedState) op;
            List<List<byte[]>> parts = new ArrayList<>();
            List<Map<RecordId, Integer>> ledgers = new ArrayList<>();
            for (int i = 0; i < p; i++) {
                parts.add(new ArrayList<>());
                ledgers.add(new HashMap<>());
            }
            for (int old = 0; checkpoint.taskSnapshots().containsKey(PhysicalGraph.taskId(node, old)); old++) {
                TaskSnapshot s = checkpoint.taskSnapshots().get(PhysicalGraph.taskId(node, old));
                byte[] whole = s.operatorState();
                for (int i = 0; i < p; i++) {
                    int task = i;
                    parts.get(i).add(state.selectKeys(whole, k -> placement.task(k, p, m) == task));
                }
                for (Map.Entry<RecordId, Integer> e : s.processed().entrySet()) {
                    long key = graph.log(e.getKey().source()).entryAt(e.getKey().offset()).key();
                    ledgers.get(placement.task(key, p, m)).merge(e.getKey(), e.getValue(), Integer::sum);
                }
            }
            for (int i = 0; i < p; i++) {
                out.put(PhysicalGraph.taskId(node, i), new TaskSnapshot(state.mergeParts(parts.get(i)), ledgers.get(i)));
            }
        }
        return out;
    }

    /**
     * Where a rescaled restore puts a stored in-flight record: the new channel (its id) for record
     * {@code r} stored on old channel {@code oldChannel}, given the rescaled operators and the new graph.
     */
    @FunctionalInterface
    public interface ChannelRoute {
        String channel(String oldChannel, Record r, Set<String> rescaled, PhysicalGraph graph);
    }

    /**
     * The correct route (the spec's {@code StoredRoute}): from the new task of the sender's
     * operator that owns the record's key group (a task of an operator not rescaled stays
     * itself) to the new task of the receiver's operator that owns it. Every edge of a rescaled
     * operator is HASH (or a BROADCAST out of it: the receiver is not rescaled then, and keeps
     * its index), so that owner is the task the record's key routes to.
     */
    public static final ChannelRoute KEY_GROUP_ROUTE = (oldChannel, r, rescaled, graph) -> {
        String[] ends = oldChannel.split("->");
        return newTask(ends[0], r.key(), rescaled, graph) + "->" + newTask(ends[1], r.key(), rescaled, graph);
    };

    /** Old task {@code task}'s counterpart in {@code graph} for a record of {@code key}: itself unless its operator is rescaled. */
    private static String newTask(String task, long key, Set<String> rescaled, PhysicalGraph graph) {
        String node = node(task);
        if (!rescaled.contains(node)) {
            return task;
        }
        return PhysicalGraph.taskId(node, KeyGroups.ownerOfKey(key, graph.job().node(node).parallelism(),
                graph.job().maxParallelism()));
    }

    /**
     * The spec's {@code RedistributeChannelState}: the channel state of the checkpoint (each old
     * channel's receiver-side part, then its sender-side part, in FIFO order) as the new graph's
     * channels hold it: every stored record of a channel into or out of a rescaled operator on
     * the channel its key group's route takes at the new parallelism ({@code route}), each new
     * channel receiving the old channels' records in their order (old channels taken in the old
     * graph's channel order, so the result does not depend on a map's order). The records of one
     * key group come from one old channel, so FIFO per key group holds on every new channel
     * (spec: {@code FifoPerChannelInv}). Flink: {@code InflightDataRescalingDescriptor}, the
     * virtual channels demultiplexed on the input side (FLINK-19533, FLINK-19801). The stored
     * output of an old task of an operator with list state leaves from the new task that holds its
     * element ({@code listSenders}: old task to new), the one whose ledger says it sent them.
     */
    static Map<String, List<Record>> redistributeChannelState(CompletedCheckpoint checkpoint, Set<String> rescaled,
                                                              PhysicalGraph oldGraph, PhysicalGraph graph,
                                                              ChannelRoute route, Map<String, String> listSenders) {
        Map<String, List<Record>> out = new LinkedHashMap<>();
        for (PhysicalGraph.ChannelSpec old : oldGraph.channels()) {
            List<Record> records = checkpoint.channelState().getOrDefault(old.id(), List.of());
            boolean moves = rescaled.contains(node(old.sender())) || rescaled.contains(node(old.receiver()));
            for (Record r : records) {
                String to = moves ? route.channel(old.id(), r, rescaled, graph) : old.id();
                String holder = listSenders.get(old.sender());
                if (holder != null) {
                    to = holder + to.substring(to.indexOf("->"));
                }
                out.computeIfAbsent(to, k -> new ArrayList<>()).add(r);
            }
        }
        checkpoint.channelState().forEach((channel, records) -> {
            if (!records.isEmpty() && !oldGraph.channels().stream().anyMatch(c -> c.id().equals(channel))) {
                throw new IllegalStateException("checkpoint " + checkpoint.id() + " holds channel state of " + channel
                        + ", which is not a channel of the job at the checkpoint's parallelism");
            }
        });
        return out;
    }

    private static String node(String task) {
        return task.substring(0, task.lastIndexOf('#'));
    }

    /**
     * {@code store} whose {@link CheckpointStore#latest} is restored into {@code job}
     * ({@link #restoreRescaled}): what a runtime restores from, at its start and after a failure.
     */
    static CheckpointStore restoringInto(CheckpointStore store, JobGraph job) {
        return new CheckpointStore() {
            private CompletedCheckpoint lastRead;
            private CompletedCheckpoint lastRescaled;

            @Override
            public void store(CompletedCheckpoint c) {
                store.store(c);
            }

            @Override
            public synchronized Optional<CompletedCheckpoint> latest() {
                Optional<CompletedCheckpoint> latest = store.latest();
                if (latest.isEmpty()) {
                    return latest;
                }
                if (latest.get() != lastRead) {
                    lastRead = latest.get();
                    lastRescaled = restoreRescaled(lastRead, job);
                }
                return Optional.of(lastRescaled);
            }

            @Override
            public List<Long> retainedIds() {
                return store.retainedIds();
            }

            @Override
            public Set<Long> damagedIds() {
                return store.damagedIds();
            }

            @Override
            public MaterialisedUploads materialisedUploads() {
                return store.materialisedUploads();
            }

            @Override
            public void endRun() {
                store.endRun();
            }
        };
    }
}
