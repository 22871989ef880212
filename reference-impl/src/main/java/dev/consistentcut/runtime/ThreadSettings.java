package dev.consistentcut.runtime;

import static dev.consistentcut.runtime.Settings.requireAtLeast;

import dev.consistentcut.channel.BufferEncoding;
import java.util.Objects;

/**
 * What only {@link ThreadedRuntime} reads: its network buffers and the order its steps are
 * observed in. Immutable; built by {@link RunOptions#builder()}, whose setters document the
 * defaults.
 *
 * @param bufferSize records per network buffer; 0: a quarter of each channel's capacity (four
 *     buffers per channel), 1: every record handed over on its own. The simulation always uses
 *     buffers of one record (a step moves one record, as the spec's actions do)
 * @param bufferTimeout an open buffer is handed over part-full at the latest this long (in
 *     nanoseconds) after its task last flushed (Flink's {@code execution.buffer-timeout}); a task
 *     with nothing else to do flushes at once. 0: flush after every step
 * @param stepOrdering held around every step and flush with its events: {@link StepOrdering#CONCURRENT}
 *     lets steps race, {@link StepOrdering#oneAtATime()} gives a trace one order of steps
 * @param bufferEncoding how the channels' buffers carry records between threads: the objects
 *     themselves, or serialized as a distributed engine must (the simulation's single records are
 *     always the objects)
 */
public record ThreadSettings(int bufferSize, long bufferTimeout, StepOrdering stepOrdering, BufferEncoding bufferEncoding) {

    public ThreadSettings {
        Objects.requireNonNull(stepOrdering, "stepOrdering");
        Objects.requireNonNull(bufferEncoding, "bufferEncoding");
        requireAtLeast("bufferSize", bufferSize, 0);
        requireAtLeast("bufferTimeout", bufferTimeout, 0);
    }
}
