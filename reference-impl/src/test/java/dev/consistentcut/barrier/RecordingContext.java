package dev.consistentcut.barrier;

import dev.consistentcut.message.Record;
import java.util.ArrayList;
import java.util.List;

/** A handler context that writes down what the states ask for, in order. */
final class RecordingContext implements BarrierHandlerContext {

    final List<String> calls = new ArrayList<>();
    private final int inputs;

    RecordingContext(int inputs) {
        this.inputs = inputs;
    }

    @Override
    public String taskId() {
        return "op#0";
    }

    @Override
    public int inputCount() {
        return inputs;
    }

    /** Inputs a test has ended. */
    final java.util.BitSet ended = new java.util.BitSet();

    @Override
    public boolean inputEnded(int input) {
        return ended.get(input);
    }

    @Override
    public void abandon(long checkpointId) {
        calls.add("abandon " + checkpointId);
    }

    final java.util.Set<Long> aborted = new java.util.TreeSet<>();

    @Override
    public void markAborted(long checkpointId) {
        aborted.add(checkpointId);
    }

    @Override
    public boolean isAborted(long checkpointId) {
        return aborted.contains(checkpointId);
    }

    @Override
    public void decline(long checkpointId) {
        calls.add("decline " + checkpointId);
    }

    @Override
    public void snapshot(long checkpointId) {
        calls.add("snapshot " + checkpointId);
    }

    @Override
    public void forwardBarrier(long checkpointId) {
        calls.add("forwardBarrier " + checkpointId);
    }

    @Override
    public void forwardBarrierOvertaking(long checkpointId) {
        calls.add("forwardBarrierOvertaking " + checkpointId);
    }

    @Override
    public void persistInFlight(int input, Record record) {
        calls.add("persist " + input + " " + record.id());
    }

    @Override
    public void acknowledge(long checkpointId) {
        calls.add("acknowledge " + checkpointId);
    }
}
