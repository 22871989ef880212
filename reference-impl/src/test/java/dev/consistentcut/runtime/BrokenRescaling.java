package dev.consistentcut.runtime;

import dev.consistentcut.graph.KeyGroups;
import dev.consistentcut.graph.PhysicalGraph;

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

    private BrokenRescaling() {
    }
}
