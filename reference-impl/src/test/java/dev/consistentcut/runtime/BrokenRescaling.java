package dev.consistentcut.runtime;

import dev.consistentcut.graph.KeyGroups;
import dev.consistentcut.graph.PhysicalGraph;
import dev.consistentcut.operator.MapOperator;

/**
 * Broken twins of {@link Rescaling}'s channel route, one per bug model of
 * spec/rescale/MCRescaleRestore.tla, for {@code Rescaling.restoreRescaled(cp, job, placement,
 * route[, observer])}: the engine's own checks catch them (RescaledRestoreTest) and so does trace
 * validation (the tools' BrokenRescaleTraces, RescaleTraceTest, tests/trace-validation.sh).
 */
public final class BrokenRescaling {

    /**
     * {@code BugChannelStateOnOldIndex}: each old channel's stored records restored on the channel
     * of the same id, as if the parallelism had not changed (before Flink's
     * InflightDataRescalingDescriptor, FLINK-19533); after a scale-down the channels of the tasks
     * that are gone lose their records.
     */
    public static final Rescaling.ChannelRoute OLD_INDEX = (oldChannel, r, rescaled, graph) -> oldChannel;

    /**
     * {@code BugKeyGroupSplit}: the stored records routed by another key-group assignment (round
     * robin, key group mod parallelism) than the one the keyed state moves by (contiguous
     * ranges): a key group's in-flight records go to one new task, its state to another.
     */
    public static final Rescaling.ChannelRoute KEY_GROUP_MOD = (oldChannel, r, rescaled, graph) -> {
        String[] ends = oldChannel.split("->");
        StringBuilder to = new StringBuilder();
        for (int k = 0; k < 2; k++) {
            String node = ends[k].substring(0, ends[k].lastIndexOf('#'));
            int m = graph.job().maxParallelism();
            to.append(k == 0 ? "" : "->").append(rescaled.contains(node)
                    ? PhysicalGraph.taskId(node, KeyGroups.keyGroupOf(r.key(), m) % graph.job().node(node).parallelism())
                    : ends[k]);
        }
        return to.toString();
    };

    /**
     * {@code BugStatelessSkipsReassignment}, as FLINK-31963 (Flink's state assignment skipped an
     * operator without state, though its input channels held in-flight records): the stored
     * records of a channel into a stateless {@link MapOperator} stay on the channel of the same id,
     * every other channel's are redistributed. After a scale-down the records on the channels of
     * the map tasks that are gone are lost.
     */
    public static final Rescaling.ChannelRoute STATELESS_SKIPPED = (oldChannel, r, rescaled, graph) -> {
        String receiver = oldChannel.split("->")[1];
        String node = receiver.substring(0, receiver.lastIndexOf('#'));
        return graph.job().node(node).operatorFactory().get() instanceof MapOperator
                ? oldChannel : Rescaling.KEY_GROUP_ROUTE.channel(oldChannel, r, rescaled, graph);
    };

    private BrokenRescaling() {
    }
}
