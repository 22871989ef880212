package dev.consistentcut.trace;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Counts the failures that strike in the middle of a checkpoint in a recorded trace: a
 * {@code FailAndRestore} while some checkpoint has barriers on the way (a source injected it or a
 * task received it) but is neither completed nor aborted. Those restores are the interesting ones:
 * tasks hold half-taken snapshots, channels hold barriers of a checkpoint that is now void.
 */
final class MidCheckpointFailures {

    private static final Pattern EVENT = Pattern.compile("^\\{\"event\":\"(\\w+)\"(?:,\"task\":\"[^\"]*\")?,\"checkpoint\":(\\d+)");

    private MidCheckpointFailures() {
    }

    /** The number of such failures among the trace's lines (the header line is skipped). */
    static int count(List<String> lines) {
        Set<Long> started = new HashSet<>();
        Set<Long> decided = new HashSet<>();
        int failures = 0;
        for (String line : lines) {
            if (line.startsWith("{\"event\":\"FailAndRestore\"")) {
                Set<Long> open = new HashSet<>(started);
                open.removeAll(decided);
                if (!open.isEmpty()) {
                    failures++;
                }
                decided.addAll(started); // a failure ends every checkpoint not completed
                continue;
            }
            Matcher m = EVENT.matcher(line);
            if (!m.find()) {
                continue;
            }
            long c = Long.parseLong(m.group(2));
            switch (m.group(1)) {
                case "InjectBarrier", "ReceiveBarrier" -> started.add(c);
                case "CompleteCheckpoint", "AbortCheckpoint" -> decided.add(c);
                default -> { }
            }
        }
        return failures;
    }
}
