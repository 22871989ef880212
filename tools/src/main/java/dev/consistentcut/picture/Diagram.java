package dev.consistentcut.picture;

import java.util.List;

/**
 * What a sequence-style picture of a behaviour shows, independent of where the behaviour came
 * from (a TLC error trace, an engine trace): one lane per channel, one row per step with the
 * contents of every channel after it, and notes. {@link SvgDiagram} draws it.
 *
 * @param title the first line (the model or trace)
 * @param subtitle what it shows, in a sentence (may be empty)
 * @param lanes the channels, as "from → to"
 * @param rows the steps, in order
 * @param verdict the closing lines: the violated claim and the numbers that violate it
 */
public record Diagram(String title, String subtitle, List<String> lanes, List<Row> rows, List<String> verdict) {

    /** What kind of step a row is; decides its colour. */
    public enum Kind { STEP, TRIGGER, SNAPSHOT, COMPLETE, FAIL, VIOLATION, UNEXPLAINED }

    /** A message in a channel: a record ("s1.0") or a barrier of checkpoint n ("B1"). */
    public record Token(String label, boolean barrier) {
    }

    /**
     * One step.
     *
     * @param number the state or event number
     * @param action the action (the spec's name, also the engine's event name)
     * @param actor the task that took it, or "" for a global step
     * @param cells per lane, the messages in the channel after the step, head (next to be read) last
     * @param changed per lane, whether the step changed that channel
     * @param blocked per lane, whether the barrier of the checkpoint its receiver is handling has arrived on it
     * @param persisted per lane, the records persisted as that channel's state by this step (empty if none)
     * @param notes what else the step changed, one short line each
     */
    public record Row(String number, String action, String actor, Kind kind, List<List<Token>> cells,
                      List<Boolean> changed, List<Boolean> blocked, List<List<Token>> persisted, List<String> notes) {
    }
}
