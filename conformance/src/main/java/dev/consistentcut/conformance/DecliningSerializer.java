package dev.consistentcut.conformance;

import java.io.IOException;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.StringSerializer;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * The serializer of the processed bag's entries in runs with {@link RunSpec.Fault#DECLINE}: Flink's
 * {@link StringSerializer}, except that it fails to write the entry {@link #DECLINE}. The keyed
 * operator adds that entry to its state in {@code snapshotState} of the checkpoint it declines:
 * the snapshot's synchronous part (the function, a copy of the list) succeeds, its asynchronous
 * part (the operator state written out, DefaultOperatorStateBackendSnapshotStrategy) fails, and
 * the task declines the checkpoint (AsyncCheckpointRunnable: CHECKPOINT_ASYNC_EXCEPTION) and
 * goes on; the coordinator aborts the checkpoint and its CheckpointFailureManager counts it
 * against {@code execution.checkpointing.tolerable-failed-checkpoints}. A throw in the
 * synchronous part would not be a decline alone: StreamTask#triggerCheckpointOnBarrier turns it
 * into an exception of the task, which fails it.
 */
final class DecliningSerializer extends TypeSerializer<String> {

    private static final long serialVersionUID = 1L;

    /** The entry whose write fails (never a record id: those are {@code src/off#count}). */
    static final String DECLINE = "!decline";

    static final DecliningSerializer INSTANCE = new DecliningSerializer();

    @Override
    public boolean isImmutableType() {
        return true;
    }

    @Override
    public TypeSerializer<String> duplicate() {
        return this;
    }

    @Override
    public String createInstance() {
        return StringSerializer.INSTANCE.createInstance();
    }

    @Override
    public String copy(String from) {
        return from;
    }

    @Override
    public String copy(String from, String reuse) {
        return from;
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(String record, DataOutputView target) throws IOException {
        if (DECLINE.equals(record)) {
            throw new IOException("seeded decline: the snapshot's asynchronous part fails");
        }
        StringSerializer.INSTANCE.serialize(record, target);
    }

    @Override
    public String deserialize(DataInputView source) throws IOException {
        return StringSerializer.INSTANCE.deserialize(source);
    }

    @Override
    public String deserialize(String reuse, DataInputView source) throws IOException {
        return deserialize(source);
    }

    @Override
    public void copy(DataInputView source, DataOutputView target) throws IOException {
        StringSerializer.INSTANCE.copy(source, target);
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof DecliningSerializer;
    }

    @Override
    public int hashCode() {
        return DecliningSerializer.class.hashCode();
    }

    @Override
    public TypeSerializerSnapshot<String> snapshotConfiguration() {
        return new Snapshot();
    }

    /** The serializer's snapshot (written into each checkpoint with the state). */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<String> {
        public Snapshot() {
            super(() -> INSTANCE);
        }
    }
}
