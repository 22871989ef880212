package dev.consistentcut.check;

import dev.consistentcut.message.RecordId;

/**
 * One way in which a checkpoint or a finished run breaks an invariant.
 *
 * @param invariant the spec's name of the violated invariant, e.g. {@code NoSkipInv}
 * @param checkpointId the checkpoint checked, 0 for a check of a finished run
 * @param operator the operator task instance concerned, or null
 * @param record the record concerned, or null
 * @param actual what the checkpoint or run has (a count, or persisted records)
 * @param expected what the invariant requires
 * @param message a full sentence naming all of the above and which way the count is off
 */
public record Violation(String invariant, long checkpointId, String operator, RecordId record,
                        long actual, long expected, String message) {

    /** "counted twice" when the count is too high, "skipped" when too low. */
    public String direction() {
        return actual > expected ? "counted twice" : "skipped";
    }

    @Override
    public String toString() {
        return message;
    }
}
