package dev.consistentcut.runtime;

import dev.consistentcut.message.Record;
import dev.consistentcut.source.SourceLog;
import java.util.function.LongConsumer;

/** A source log whose read of each offset on a task thread first calls {@code beforeRead} (inside the source's step). */
record HookedSourceLog(SourceLog inner, LongConsumer beforeRead) implements SourceLog {
    @Override
    public long length() {
        return inner.length();
    }

    @Override
    public Entry entryAt(long offset) {
        return inner.entryAt(offset);
    }

    @Override
    public Record read(String source, long offset) {
        if (Thread.currentThread().getName().startsWith("task-")) { // not the runtime's set-up (the invariants read the logs)
            beforeRead.accept(offset);
        }
        return inner.read(source, offset);
    }
}
