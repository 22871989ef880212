package dev.consistentcut.bench.scale;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The CPU time (user + system) of a shell's children, from the output of the POSIX shell's
 * {@code times} builtin: two lines, the shell's own times and then its children's, each
 * {@code <min>m<sec>s <min>m<sec>s}. The launcher runs the JVM under {@code sh -c} for it: the JDK
 * gives no CPU time of a child once it has exited, and on a shared machine CPU time moves less
 * with the other work than wall time does. Stateless.
 */
final class CpuTimes {

    private static final Pattern LINE = Pattern.compile("(\\d+)m([0-9.,]+)s\\s+(\\d+)m([0-9.,]+)s");

    private CpuTimes() {
    }

    /** The children's user + system time in nanoseconds, or -1 if {@code text} is not {@code times}' output. */
    static long childrenNanos(String text) {
        String[] lines = text.strip().split("\\R");
        if (lines.length != 2) {
            return -1;
        }
        Matcher m = LINE.matcher(lines[1].strip());
        if (!m.matches()) {
            return -1;
        }
        return Math.round((seconds(m.group(1), m.group(2)) + seconds(m.group(3), m.group(4))) * 1e9);
    }

    private static double seconds(String minutes, String seconds) {
        return Long.parseLong(minutes) * 60 + Double.parseDouble(seconds.replace(',', '.'));
    }
}
