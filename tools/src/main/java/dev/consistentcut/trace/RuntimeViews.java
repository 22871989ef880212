package dev.consistentcut.trace;

import dev.consistentcut.channel.Channel;
import dev.consistentcut.message.RecordId;
import dev.consistentcut.runtime.SimulationRuntime;
import dev.consistentcut.runtime.ThreadedRuntime;
import java.util.Map;

/** The {@link TraceRecorder.StateView} of each runtime, through its public accessors. */
public final class RuntimeViews {

    private RuntimeViews() {
    }

    public static TraceRecorder.StateView of(SimulationRuntime r) {
        return new TraceRecorder.StateView() {
            @Override
            public Channel channel(String channelId) {
                return r.channel(channelId);
            }

            @Override
            public long sourceOffset(String sourceTask) {
                return r.sourceTask(sourceTask).offset();
            }

            @Override
            public Map<RecordId, Integer> processed(String operatorTask) {
                return r.operatorTask(operatorTask).processed();
            }

            @Override
            public Map<RecordId, Integer> committedOutput(String sinkTask) {
                return r.operatorTask(sinkTask).committedOutput();
            }
        };
    }

    /** Read only inside a step (under the runtime's trace lock) or while no task runs. */
    public static TraceRecorder.StateView of(ThreadedRuntime r) {
        return new TraceRecorder.StateView() {
            @Override
            public Channel channel(String channelId) {
                return r.channel(channelId);
            }

            @Override
            public long sourceOffset(String sourceTask) {
                return r.sourceTask(sourceTask).offset();
            }

            @Override
            public Map<RecordId, Integer> processed(String operatorTask) {
                return r.operatorTask(operatorTask).processed();
            }

            @Override
            public Map<RecordId, Integer> committedOutput(String sinkTask) {
                return r.operatorTask(sinkTask).committedOutput();
            }
        };
    }
}
