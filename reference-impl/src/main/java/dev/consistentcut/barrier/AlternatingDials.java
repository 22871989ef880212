package dev.consistentcut.barrier;

/**
 * The three places where the switch to unaligned can go wrong, as the spec's constants of
 * {@code spec/alternating/AlternatingCheckpoint.tla} (defined correctly and wrongly in
 * {@code MCAlternatingCheckpoint.tla}): the alternating handler states read them, the shipped
 * mode uses {@link #CORRECT}, and the broken twins of the tests set one wrong each.
 *
 * @param persistArrived the spec's {@code SwitchPersistFrom}: handling a checkpoint unaligned,
 *     persist the records of inputs whose barrier has arrived too (correct: false;
 *     {@code BugSwitchPersistsArrivedInputs}: true)
 * @param persistPending persist the records of inputs whose barrier has not arrived (correct:
 *     true; {@code BugSwitchForgetsPendingInputs}: false)
 * @param savepointsMaySwitch the spec's {@code MaySwitch}: a savepoint's alignment may time out
 *     (correct: false; {@code BugForcedAlignedSwitches}, FLINK-33693: true)
 * @param honourOvertaking the spec's {@code HonoursOvertaking}: an unaligned barrier makes the
 *     receiver handle the checkpoint unaligned (correct: true; {@code BugSwitchNotPropagated}:
 *     false, it is aligned like any other)
 */
record AlternatingDials(boolean persistArrived, boolean persistPending, boolean savepointsMaySwitch,
                        boolean honourOvertaking) {

    static final AlternatingDials CORRECT = new AlternatingDials(false, true, false, true);

    /** Whether a record taken from an input, arrived or not, is persisted while handling unaligned. */
    boolean persists(boolean arrived) {
        return arrived ? persistArrived : persistPending;
    }

    /** Whether a barrier of checkpoint with this savepoint flag may switch on a timeout. */
    boolean maySwitch(boolean savepoint) {
        return !savepoint || savepointsMaySwitch;
    }

    /** Whether the receiver handles {@code barrier} unaligned. */
    boolean unaligned(dev.consistentcut.message.Barrier barrier) {
        return honourOvertaking && !barrier.aligned();
    }
}
