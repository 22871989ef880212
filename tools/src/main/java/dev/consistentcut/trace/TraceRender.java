package dev.consistentcut.trace;

import dev.consistentcut.picture.PictureTool;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code trace render TRACE OUT.svg [--unexplained N] [--why TEXT]... [--force]}: checks the command
 * line and the trace before anything is drawn, then hands over to {@link PictureTool}'s {@code trace}
 * command, which draws it. Refused with exit 2: an option that is not one of these or a bad value,
 * an {@code --unexplained} event the trace does not have, an existing OUT.svg without {@code --force}
 * (a picture is not replaced by accident), and a trace larger than {@link #MAX_TRACE_BYTES}: it
 * is refused at once, before it is read. A file that is not UTF-8 text is not a trace: exit 3, as PictureTool treats an input it
 * cannot draw. Runs on the caller's thread.
 */
final class TraceRender {

    /**
     * Largest trace drawn. The picture has a row per event and is built in memory: its heap is
     * about 150 times the trace's size (measured: a 1.3 MB trace of the fanin job at capacity 8 ran
     * out of 200 MB, a 4.5 MB demo trace out of 512 MB), so a trace of 1 MB fits the default heap of
     * a machine with 1 GB of memory, and makes a picture of 3,000 rows, as many as a reader follows.
     */
    static final long MAX_TRACE_BYTES = 1_000_000;

    private TraceRender() {
    }

    /** @throws IllegalArgumentException for bad usage (exit 2) */
    static int run(List<String> args, PrintStream out, PrintStream err) {
        List<String> positional = new ArrayList<>();
        List<String> why = new ArrayList<>();
        boolean force = false;
        long unexplained = 0;
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            switch (a) {
                case "--force" -> force = true;
                case "--unexplained" -> unexplained = eventNumber(value(args, ++i, a));
                case "--why" -> why.add(value(args, ++i, a));
                default -> {
                    if (a.startsWith("--")) {
                        throw new IllegalArgumentException("unknown option '" + a + "'");
                    }
                    positional.add(a);
                }
            }
        }
        if (positional.size() != 2) {
            throw new IllegalArgumentException("render needs TRACE and OUT.svg");
        }
        Path trace = Path.of(positional.get(0));
        Path svg = Path.of(positional.get(1));
        if (Files.isRegularFile(trace)) { // a missing one is PictureTool's to name, as it always was
            long size = size(trace);
            if (size > MAX_TRACE_BYTES) {
                throw new IllegalArgumentException(trace + " has " + size + " bytes, more than the "
                        + MAX_TRACE_BYTES + " bytes render draws (a row per event, built in memory);"
                        + " draw a shorter run ('trace record' with fewer --records or --checkpoints)");
            }
            long events;
            try {
                events = Math.max(0, TraceLines.read(trace).size() - 1);
            } catch (IllegalArgumentException e) {
                // As PictureTool treats any input it cannot draw: an input problem, exit 3.
                throw new TraceTool.IOProblem(e.getMessage());
            }
            if (unexplained > events) {
                throw new IllegalArgumentException("--unexplained " + unexplained + ": " + trace + " has " + events
                        + " events");
            }
        }
        TraceTool.checkWritable(svg, force, "OUT.svg");
        List<String> picture = new ArrayList<>(List.of("trace", trace.toString(), svg.toString(),
                "--unexplained", Long.toString(unexplained)));
        why.forEach(w -> picture.addAll(List.of("--why", w)));
        return PictureTool.run(picture.toArray(String[]::new), out, err);
    }

    private static String value(List<String> args, int i, String option) {
        if (i >= args.size()) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args.get(i);
    }

    /** An event's number: 1 is the line after the header; 0 marks none. */
    private static long eventNumber(String v) {
        long n;
        try {
            n = Long.parseLong(v);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--unexplained needs an event number, got '" + v + "'");
        }
        if (n < 0) {
            throw new IllegalArgumentException("--unexplained must be an event number, 1 or more (0: none), got " + n);
        }
        return n;
    }

    private static long size(Path trace) {
        try {
            return Files.size(trace);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read trace " + trace + ": " + e.getMessage(), e);
        }
    }
}
