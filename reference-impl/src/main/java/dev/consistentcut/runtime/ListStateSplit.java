package dev.consistentcut.runtime;

import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.checkpoint.TaskSnapshot;
import dev.consistentcut.graph.PhysicalGraph;
import dev.consistentcut.message.RecordId;
import dev.consistentcut.operator.SplitListState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * The non-keyed part of the spec's {@code AssignKeyGroups} (spec/rescale/RescaleRestore.tla,
 * {@code RestoredListState}): the list state of a {@link SplitListState} operator divided among
 * its new tasks. Each old task's snapshot is one element, its state with its ledger of the
 * records whose contributions it holds; each element goes to exactly one new task, which restores
 * the merge of its elements and the union of their ledgers. Stateless and thread-safe.
 */
public final class ListStateSplit {

    /** Which of the {@code elements} elements (indices, in order) new task {@code task} of {@code parallelism} gets. */
    @FunctionalInterface
    public interface Redistribution {
        List<Integer> elementsOf(int task, int elements, int parallelism);
    }

    /**
     * Flink's {@code SPLIT_DISTRIBUTE} ({@code RoundRobinOperatorStateRepartitioner
     * .repartitionSplitState}, one named state; {@code RoundRobinOperatorStateRepartitionerTest}):
     * contiguous runs of {@code n / p} elements, the first {@code n % p} tasks one more. After a
     * scale-up a new task may get none.
     */
    public static final Redistribution SPLIT = (task, n, p) -> {
        int base = n / p;
        int start = task * base + Math.min(task, n % p);
        return IntStream.range(start, start + base + (task < n % p ? 1 : 0)).boxed().toList();
    };

    private ListStateSplit() {
    }

    /** The snapshots of the {@code parallelism} new tasks of operator {@code node}, from its old tasks' in {@code checkpoint}. */
    static Map<String, TaskSnapshot> assign(CompletedCheckpoint checkpoint, String node, int parallelism,
                                            SplitListState state, Redistribution redistribution) {
        List<TaskSnapshot> elements = new ArrayList<>();
        for (int old = 0; checkpoint.taskSnapshots().containsKey(PhysicalGraph.taskId(node, old)); old++) {
            elements.add(checkpoint.taskSnapshots().get(PhysicalGraph.taskId(node, old)));
        }
        Map<String, TaskSnapshot> out = new HashMap<>();
        for (int task = 0; task < parallelism; task++) {
            List<byte[]> states = new ArrayList<>();
            Map<RecordId, Integer> ledger = new HashMap<>();
            for (int e : redistribution.elementsOf(task, elements.size(), parallelism)) {
                states.add(elements.get(e).operatorState());
                elements.get(e).processed().forEach((id, times) -> ledger.merge(id, times, Integer::sum));
            }
            out.put(PhysicalGraph.taskId(node, task), new TaskSnapshot(state.mergeElements(states), ledger));
        }
        return out;
    }

    /**
     * For each old task of {@code node} (of {@code oldParallelism}), the new task its element goes
     * to (the first, were it given to several): the sender of its stored output records after the
     * restore, so that the records a task's snapshot says it sent leave from the task holding that
     * snapshot's ledger.
     */
    static Map<String, String> newHolders(String node, int oldParallelism, int parallelism, Redistribution redistribution) {
        Map<String, String> out = new HashMap<>();
        for (int task = parallelism - 1; task >= 0; task--) {
            for (int e : redistribution.elementsOf(task, oldParallelism, parallelism)) {
                out.put(PhysicalGraph.taskId(node, e), PhysicalGraph.taskId(node, task));
            }
        }
        return out;
    }
}
