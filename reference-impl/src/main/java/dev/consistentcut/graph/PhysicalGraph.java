package dev.consistentcut.graph;

import dev.consistentcut.graph.JobGraph.Edge;
import dev.consistentcut.graph.JobGraph.Node;
import dev.consistentcut.message.Record;
import dev.consistentcut.source.SourceLog;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The job graph expanded into task instances and channels: the spec's {@code Tasks} and
 * {@code Edges}.
 *
 * <ul>
 *   <li>Task instance ids are {@code node#i}, {@code i} from 0 to parallelism - 1 (e.g. {@code count#1}).
 *   <li>Channel ids are {@code sender->receiver} (e.g. {@code s1#0->count#1}); there is one channel
 *       per pair of instances that the edge's partitioning can connect (FORWARD: {@code i -> i};
 *       BROADCAST and HASH: every pair), so ids are unique.
 *   <li>An operator instance's physical inputs are numbered in the order of its node's in-edges,
 *       then sender instance: input {@code k} of {@code count#0} is {@code inputs("count#0").get(k)}.
 * </ul>
 *
 * <p>{@link #route} and {@link #paths} are the spec's {@code Route} and {@code Paths}. Immutable
 * and thread-safe.
 */
public final class PhysicalGraph {

    /** A task instance: instance {@code index} of node {@code node}. */
    public record TaskSpec(String id, String node, int index, NodeKind kind) {
    }

    /**
     * A channel from task instance {@code sender} to {@code receiver}: the receiver's physical input
     * number {@code receiverInput}, on its logical input (in-edge index) {@code logicalInput}.
     */
    public record ChannelSpec(String id, String sender, String receiver, int receiverInput,
                              int logicalInput, int capacity) {
    }

    /** One out-edge of a task instance: its partitioning and its channels, indexed by receiver instance (null where none). */
    private record OutEdge(Partitioning partitioning, int senderIndex, int[] outputByReceiver, int maxParallelism) {
    }

    private final JobGraph job;
    private final Map<String, TaskSpec> tasks = new LinkedHashMap<>();
    private final Map<String, ChannelSpec> channels = new LinkedHashMap<>();
    private final Map<String, List<ChannelSpec>> inputs = new LinkedHashMap<>();
    private final Map<String, List<ChannelSpec>> outputs = new LinkedHashMap<>();
    private final Map<String, List<OutEdge>> outEdges = new LinkedHashMap<>();

    private PhysicalGraph(JobGraph job) {
        this.job = job;
        for (Node n : job.nodes()) {
            for (int i = 0; i < n.parallelism(); i++) {
                String id = taskId(n.name(), i);
                tasks.put(id, new TaskSpec(id, n.name(), i, n.kind()));
                inputs.put(id, new ArrayList<>());
                outputs.put(id, new ArrayList<>());
                outEdges.put(id, new ArrayList<>());
            }
        }
        // Inputs numbered by receiver: in-edge order, then sender instance.
        for (Node receiver : job.nodes()) {
            List<Edge> in = job.inEdges(receiver.name());
            for (int r = 0; r < receiver.parallelism(); r++) {
                for (int logical = 0; logical < in.size(); logical++) {
                    Edge e = in.get(logical);
                    Node sender = job.node(e.from());
                    for (int s = 0; s < sender.parallelism(); s++) {
                        if (e.partitioning() == Partitioning.FORWARD && s != r) {
                            continue;
                        }
                        String from = taskId(sender.name(), s);
                        String to = taskId(receiver.name(), r);
                        List<ChannelSpec> receiverInputs = inputs.get(to);
                        ChannelSpec c = new ChannelSpec(from + "->" + to, from, to, receiverInputs.size(), logical, e.capacity());
                        receiverInputs.add(c);
                        channels.put(c.id(), c);
                    }
                }
            }
        }
        // Outputs numbered by sender: out-edge order, then receiver instance.
        for (Node sender : job.nodes()) {
            for (Edge e : job.outEdges(sender.name())) {
                Node receiver = job.node(e.to());
                for (int s = 0; s < sender.parallelism(); s++) {
                    String from = taskId(sender.name(), s);
                    int[] byReceiver = new int[receiver.parallelism()];
                    for (int r = 0; r < receiver.parallelism(); r++) {
                        ChannelSpec c = channels.get(from + "->" + taskId(receiver.name(), r));
                        byReceiver[r] = -1;
                        if (c != null) {
                            byReceiver[r] = outputs.get(from).size();
                            outputs.get(from).add(c);
                        }
                    }
                    outEdges.get(from).add(new OutEdge(e.partitioning(), s, byReceiver, job.maxParallelism()));
                }
            }
        }
    }

    /** Expands {@code job}; the job graph was validated when it was built. */
    public static PhysicalGraph of(JobGraph job) {
        return new PhysicalGraph(job);
    }

    public static String taskId(String node, int index) {
        return node + "#" + index;
    }

    public JobGraph job() {
        return job;
    }

    /** Every task instance, sources and operators, in node declaration order. */
    public List<TaskSpec> tasks() {
        return List.copyOf(tasks.values());
    }

    public List<String> sourceTasks() {
        return tasks.values().stream().filter(t -> t.kind() == NodeKind.SOURCE).map(TaskSpec::id).toList();
    }

    public List<String> operatorTasks() {
        return tasks.values().stream().filter(t -> t.kind() == NodeKind.OPERATOR).map(TaskSpec::id).toList();
    }

    public TaskSpec task(String id) {
        TaskSpec t = tasks.get(id);
        if (t == null) {
            throw new IllegalArgumentException("unknown task instance '" + id + "'");
        }
        return t;
    }

    public List<ChannelSpec> channels() {
        return List.copyOf(channels.values());
    }

    public ChannelSpec channel(String id) {
        ChannelSpec c = channels.get(id);
        if (c == null) {
            throw new IllegalArgumentException("unknown channel '" + id + "'");
        }
        return c;
    }

    /** The physical inputs of task instance {@code task}, by input number. */
    public List<ChannelSpec> inputs(String task) {
        task(task);
        return Collections.unmodifiableList(inputs.get(task));
    }

    /** The physical outputs of task instance {@code task}, by output number. */
    public List<ChannelSpec> outputs(String task) {
        task(task);
        return Collections.unmodifiableList(outputs.get(task));
    }

    /** The log that source instance {@code task} reads. */
    public SourceLog log(String task) {
        TaskSpec t = task(task);
        if (t.kind() != NodeKind.SOURCE) {
            throw new IllegalArgumentException(task + " is not a source");
        }
        return job.node(t.node()).logs().get(t.index());
    }

    /**
     * The spec's {@code Route(task, r)}: the output numbers (indexes into {@link #outputs}) that a
     * record with {@code key} takes from {@code task}: on each out-edge, all receivers (BROADCAST),
     * the same instance number (FORWARD) or the owner of the key's key group (HASH, {@link KeyGroups}).
     */
    public int[] route(String task, long key) {
        task(task);
        return routeOnEveryEdge(outEdges.get(task), outputs.get(task).size(), key);
    }

    /**
     * {@link #route} the general way, edge by edge, into a new array: {@link #route} itself, and
     * {@link Router}'s answer when no shortcut applies (RouterTest compares the shortcuts with it).
     */
    private static int[] routeOnEveryEdge(Iterable<OutEdge> edges, int outputs, long key) {
        int[] buffer = new int[outputs];
        int n = 0;
        for (OutEdge e : edges) {
            switch (e.partitioning()) {
                case BROADCAST -> {
                    for (int o : e.outputByReceiver()) {
                        buffer[n++] = o;
                    }
                }
                case FORWARD -> buffer[n++] = e.outputByReceiver()[e.senderIndex()];
                case HASH -> buffer[n++] = e.outputByReceiver()[Partitioning.hashTarget(key, e.outputByReceiver().length, e.maxParallelism())];
            }
        }
        return n == buffer.length ? buffer : java.util.Arrays.copyOf(buffer, n);
    }

    /**
     * {@link #route} of one task as an object that looks nothing up per call (the hot
     * path asks for a record's route two or three times per record). With one out-edge of a
     * hash or forward partitioning it returns shared one-element arrays; callers must not change
     * the arrays they get. Same answers as {@link #route}. Thread-safe (immutable).
     */
    public Router router(String task) {
        task(task);
        return new Router(outEdges.get(task).toArray(new OutEdge[0]), outputs.get(task).size());
    }

    /** See {@link #router}. */
    public static final class Router {
        private final OutEdge[] edges;
        private final int outputs;
        /** {@code single[o]} is {@code {o}}. */
        private final int[][] single;
        private final int[] none = new int[0];

        private Router(OutEdge[] edges, int outputs) {
            this.edges = edges;
            this.outputs = outputs;
            this.single = new int[outputs][];
            for (int o = 0; o < outputs; o++) {
                single[o] = new int[] {o};
            }
        }

        /** The outputs (indices into {@link PhysicalGraph#outputs}) a record with {@code key} takes; do not modify. */
        public int[] route(long key) {
            if (edges.length == 1) {
                OutEdge e = edges[0];
                switch (e.partitioning()) {
                    case HASH -> {
                        return single[e.outputByReceiver()[Partitioning.hashTarget(key, e.outputByReceiver().length, e.maxParallelism())]];
                    }
                    case FORWARD -> {
                        return single[e.outputByReceiver()[e.senderIndex()]];
                    }
                    default -> {
                        return e.outputByReceiver();
                    }
                }
            }
            if (edges.length == 0) {
                return none;
            }
            return routeOnEveryEdge(java.util.Arrays.asList(edges), outputs, key);
        }
    }

    /**
     * The spec's {@code Paths(n, r, t)}: the number of routes along which record {@code r}, at
     * task instance {@code from}, reaches operator instance {@code to}. {@code paths(t, r, t) = 1};
     * otherwise the sum over the outputs {@code r} takes from {@code from} of the paths from their
     * receivers. It depends on the graph and {@code r.key()} only.
     */
    public int paths(String from, Record r, String to) {
        return paths(from, r.key(), to);
    }

    /** {@link #paths(String, Record, String)} for a record with {@code key}. */
    public int paths(String from, long key, String to) {
        if (from.equals(to)) {
            return 1;
        }
        int sum = 0;
        List<ChannelSpec> out = outputs.get(from);
        for (int o : route(from, key)) {
            sum += paths(out.get(o).receiver(), key, to);
        }
        return sum;
    }
}
