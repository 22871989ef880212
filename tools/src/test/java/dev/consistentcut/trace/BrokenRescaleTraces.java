package dev.consistentcut.trace;

import dev.consistentcut.check.Violation;
import dev.consistentcut.runtime.BrokenRescaling;
import dev.consistentcut.runtime.Rescaling;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A test aid: the rescale traces of the broken twins of the engine's rescaled restore
 * ({@link BrokenRescaling}, one per bug model of MCRescaleRestore.tla), which trace validation
 * must reject at their {@code RedistributeChannelState} event, and whose restored runs the
 * engine's own checks must report. {@code main(DIR)} writes {@code DIR/<name>.ndjson} for each
 * and prints the engine's verdict (tests/trace-validation.sh, test classes on the class path);
 * exit 1 if the engine's checks missed one. RescaleTraceTest checks their shape.
 */
final class BrokenRescaleTraces {

    /** A broken twin: its name, its run and its channel route. */
    record Twin(String name, RescaleTraces.Settings settings, Rescaling.ChannelRoute route) {
    }

    /**
     * BugKeyGroupSplit: unaligned, seed 1, 2 to 3: the checkpoint holds s2's records of key groups
     * 127 and 102 in flight, which ranges give new task 2 and mod 3 gives tasks 1 and 0.
     * BugChannelStateOnOldIndex: unaligned, seed 1, 3 to 1: stored records on channels into
     * count#1 and count#2, which are gone after the scale-down.
     * BugStatelessSkipsReassignment (FLINK-31963): the map chain, unaligned, seed 1, 2 to 1 (both
     * operators): stored records on channels into map#1 (s1's offsets 3 and 4, s2's 4), which stay
     * on those channels, gone after the scale-down; the map's output channels' records are
     * redistributed.
     */
    static final List<Twin> TWINS = List.of(
            new Twin("broken-rescale-key-group-split", new RescaleTraces.Settings("unaligned", 2, 3, 12, 2, 1),
                    BrokenRescaling.KEY_GROUP_MOD),
            new Twin("broken-rescale-channel-state-on-old-index", new RescaleTraces.Settings("unaligned", 3, 1, 12, 2, 1),
                    BrokenRescaling.OLD_INDEX),
            new Twin("broken-rescale-stateless-skipped",
                    new RescaleTraces.Settings("map", "unaligned", 2, 1, 12, 2, 1), BrokenRescaling.STATELESS_SKIPPED));

    private BrokenRescaleTraces() {
    }

    /** Records {@code twin} into {@code out}; returns what the run came to. */
    static RescaleTraces.Recorded record(Path out, Twin twin) {
        return RescaleTraces.record(out.resolve(twin.name() + ".ndjson"), twin.settings(), Rescaling.KEY_GROUPS,
                twin.route());
    }

    public static void main(String[] args) throws IOException {
        Path out = Path.of(args[0]);
        Files.createDirectories(out);
        int missed = 0;
        for (Twin t : TWINS) {
            RescaleTraces.Recorded r = record(out, t);
            List<String> caught = r.after().violations().stream().map(Violation::invariant).distinct().toList();
            System.out.println("wrote " + out.resolve(t.name() + ".ndjson") + " (checkpoint " + r.checkpoint().id()
                    + ", " + r.checkpoint().persistedRecordCount() + " records in flight); the engine's own checks after"
                    + " the restore: " + (caught.isEmpty() ? "HOLD (the twin is not caught)" : "violated " + caught));
            missed += caught.isEmpty() ? 1 : 0;
        }
        System.exit(missed == 0 ? 0 : 1);
    }
}
