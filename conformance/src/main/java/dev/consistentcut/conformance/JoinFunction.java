package dev.consistentcut.conformance;

import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * The keyed operator ({@code join}, parallelism 2): a per-key count in keyed {@code ValueState}
 * (the job's own state) and, for the trace, the processed bag in operator state. It holds the
 * seeded fault. Broken twin {@link RunSpec.Twin#STATE_IN_NOTIFY}: counts records into its bag only
 * when a checkpoint completes.
 */
public final class JoinFunction extends KeyedProcessFunction<Integer, Rec, Rec>
        implements CheckpointedFunction, CheckpointListener {

    private static final long serialVersionUID = 1L;

    private final RunSpec spec;
    private transient ProcessedBag bag;
    private transient ValueState<Integer> count;
    private transient List<Rec> notYetCounted;

    public JoinFunction(RunSpec spec) {
        this.spec = spec;
    }

    @Override
    public void initializeState(FunctionInitializationContext context) throws Exception {
        bag = new ProcessedBag("join", spec);
        bag.initializeState(context, getRuntimeContext(), false);
        count = context.getKeyedStateStore().getState(new ValueStateDescriptor<>("count", Integer.class));
        notYetCounted = new ArrayList<>();
    }

    @Override
    public void processElement(Rec r, Context ctx, Collector<Rec> out) throws Exception {
        bag.maybeThrow(r);
        bag.processRecord(r);
        Integer c = count.value();
        count.update(c == null ? 1 : c + 1);
        if (spec.twin() == RunSpec.Twin.STATE_IN_NOTIFY) {
            notYetCounted.add(r);
        } else {
            bag.add(r);
        }
        out.collect(new Rec(r.src, r.off, r.key, bag.task()));
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) throws Exception {
        bag.snapshotState(context);
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
        bag.notifyCheckpointComplete(checkpointId);
        notYetCounted.forEach(bag::add);
        notYetCounted.clear();
    }

    @Override
    public void notifyCheckpointAborted(long checkpointId) {
        bag.notifyCheckpointAborted(checkpointId);
    }
}
