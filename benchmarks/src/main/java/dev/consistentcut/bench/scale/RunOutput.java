package dev.consistentcut.bench.scale;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one {@code run} of the CLI printed on stdout, as far as the scale benchmark reads it: the
 * count of completed checkpoints and the run's own elapsed time (its first line), each
 * checkpoint's duration (one line per checkpoint) and the verdict line. Immutable.
 *
 * @param checkpointsCompleted the count the first line reports
 * @param elapsedMs the run's elapsed time as the first line reports it (the job alone, without
 *     the JVM's start or the checks after it)
 * @param durationsMs each printed checkpoint's duration, in the order printed
 * @param verdict the text after {@code verdict: }, e.g. {@code exactly-once holds}
 */
public record RunOutput(int checkpointsCompleted, double elapsedMs, List<Double> durationsMs, String verdict) {

    /** The verdict a run of an exactly-once mode must reach; anything else fails the sweep. */
    public static final String EXACTLY_ONCE = "exactly-once holds";

    private static final Pattern FIRST = Pattern.compile(
            "^mode \\S+, runtime \\S+, .*?, (\\d+) checkpoints completed, .*, ([0-9.,]+) ms$");
    private static final Pattern CHECKPOINT = Pattern.compile("^checkpoint\\s+\\d+\\s+duration\\s+([0-9.,]+) ms\\b.*");
    private static final String VERDICT = "verdict: ";

    public RunOutput {
        durationsMs = List.copyOf(durationsMs);
    }

    /**
     * Reads the run's stdout.
     *
     * @throws IllegalArgumentException if the first line or the verdict is missing, or the
     *     checkpoint lines do not match the count the first line reports
     */
    public static RunOutput parse(String stdout) {
        Integer completed = null;
        double elapsed = Double.NaN;
        List<Double> durations = new ArrayList<>();
        String verdict = null;
        for (String line : stdout.split("\\R")) {
            Matcher first = FIRST.matcher(line);
            Matcher checkpoint = CHECKPOINT.matcher(line);
            if (completed == null && first.matches()) {
                completed = Integer.parseInt(first.group(1));
                elapsed = number(first.group(2));
            } else if (checkpoint.matches()) {
                durations.add(number(checkpoint.group(1)));
            } else if (line.startsWith(VERDICT)) {
                verdict = line.substring(VERDICT.length()).trim();
            }
        }
        if (completed == null) {
            throw new IllegalArgumentException("no 'mode ..., N checkpoints completed, ...' line in the run's output");
        }
        if (verdict == null) {
            throw new IllegalArgumentException("no 'verdict:' line in the run's output");
        }
        if (durations.size() != completed) {
            throw new IllegalArgumentException("the run reports " + completed + " completed checkpoints but prints "
                    + durations.size() + " checkpoint lines");
        }
        return new RunOutput(completed, elapsed, durations, verdict);
    }

    public boolean exactlyOnce() {
        return verdict.equals(EXACTLY_ONCE);
    }

    /** The CLI formats with the default locale: a decimal comma reads as a point. */
    private static double number(String text) {
        return Double.parseDouble(text.replace(',', '.'));
    }
}
