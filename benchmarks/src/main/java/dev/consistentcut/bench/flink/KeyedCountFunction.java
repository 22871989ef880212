package dev.consistentcut.bench.flink;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.java.tuple.Tuple4;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * The reference engine's {@code KeyedCount} in Flink: counts records per key and emits each
 * record with its key's new count as value, one record out per record in.
 */
public final class KeyedCountFunction
        extends KeyedProcessFunction<Long, Tuple4<Integer, Long, Long, Long>, Tuple4<Integer, Long, Long, Long>> {

    private static final long serialVersionUID = 1L;

    private transient ValueState<Long> count;

    @Override
    public void open(OpenContext openContext) {
        count = getRuntimeContext().getState(new ValueStateDescriptor<>("count", Long.class));
    }

    @Override
    public void processElement(
            Tuple4<Integer, Long, Long, Long> record,
            Context ctx,
            Collector<Tuple4<Integer, Long, Long, Long>> out) throws Exception {
        Long previous = count.value();
        long next = previous == null ? 1 : previous + 1;
        count.update(next);
        record.f3 = next;
        out.collect(record);
    }
}
