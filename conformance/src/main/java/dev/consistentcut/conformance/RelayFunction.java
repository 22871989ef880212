package dev.consistentcut.conformance;

import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * A non-keyed operator at parallelism 1 that passes every record on: the diamond's {@code left}
 * and {@code right} maps and the {@code sink}. Its processed bag is its state. Broken twin
 * {@link RunSpec.Twin#SINK_DROPS_ON_RESTORE}: the sink throws its restored bag away.
 */
public final class RelayFunction extends ProcessFunction<Rec, Rec> implements CheckpointedFunction, CheckpointListener {

    private static final long serialVersionUID = 1L;

    private final RunSpec spec;
    private final String uid;
    private transient ProcessedBag bag;

    public RelayFunction(RunSpec spec, String uid) {
        this.spec = spec;
        this.uid = uid;
    }

    @Override
    public void initializeState(FunctionInitializationContext context) throws Exception {
        bag = new ProcessedBag(uid, spec);
        bag.initializeState(context, getRuntimeContext(),
                uid.equals("sink") && spec.twin() == RunSpec.Twin.SINK_DROPS_ON_RESTORE);
    }

    @Override
    public void processElement(Rec r, Context ctx, Collector<Rec> out) {
        bag.processRecord(r);
        bag.add(r);
        out.collect(new Rec(r.src, r.off, r.key, bag.task()));
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) throws Exception {
        bag.snapshotState(context);
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
        bag.notifyCheckpointComplete(checkpointId);
    }

    @Override
    public void notifyCheckpointAborted(long checkpointId) {
        bag.notifyCheckpointAborted(checkpointId);
    }
}
