package dev.consistentcut.cli;

import dev.consistentcut.barrier.DeliveryGuarantee;
import dev.consistentcut.check.CutInvariants;
import dev.consistentcut.check.Violation;
import dev.consistentcut.checkpoint.CheckpointStats;
import dev.consistentcut.checkpoint.CheckpointSummary;
import dev.consistentcut.runtime.RunResult;
import dev.consistentcut.text.Json;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The report of a run or a resume, as text or one JSON document.
 *
 * @param jobId the durable job's id, or null
 * @param resumedFrom the checkpoint a resume started from (0: the initial state), or null for a run
 * @param declined one line per checkpoint whose store write failed (it was aborted, the job went on)
 * @param output the check of a file job's output directory against its inputs, or null
 */
record Report(CliOptions o, RunResult r, String jobId, Long resumedFrom, List<String> declined, OutputCheck output) {

    /** A duration in the unit the report shows: milliseconds (threads, from nanoseconds) or steps. */
    static String time(long value, boolean simulation) {
        return simulation ? Long.toString(value) : String.format("%.2f", value / 1e6);
    }

    private boolean alternating() {
        return o.mode().alignedTimeoutMillis() >= 0;
    }

    /** Alternating mode: how many completed checkpoints switched to unaligned, and the savepoints. */
    private String switchLine() {
        return String.format("alternating (aligned timeout %d %s): %d of %d completed checkpoints switched to unaligned%s,"
                        + " %d savepoint(s)%s", o.mode().alignedTimeoutMillis(), o.simulation() ? "steps" : "ms",
                r.switchedCheckpoints().size(), r.checkpoints().size(),
                ids(r.switchedCheckpoints()), r.savepoints().size(), ids(r.savepoints()));
    }

    private static String ids(java.util.Set<Long> ids) {
        if (ids.isEmpty()) {
            return "";
        }
        List<String> shown = ids.stream().limit(10).map(String::valueOf).toList();
        return " (" + String.join(", ", shown) + (ids.size() > 10 ? ", ..." : "") + ")";
    }

    private boolean atLeastOnce() {
        return o.mode().deliveryGuarantee() == DeliveryGuarantee.AT_LEAST_ONCE;
    }

    /**
     * Each invariant checked in this run (those its mode promises, CutInvariants.applicable, then
     * order, restore point and status, CutInvariants.lifecycle), with "holds" or the number of violations. Aligned and unaligned report NoDoubleCountInv and
     * NoSkipInv as their conjunction ConsistentCutInv; at-least-once reports NoSkipInv alone.
     */
    private Map<String, String> verdicts() {
        boolean atLeastOnce = atLeastOnce();
        Map<String, List<Violation>> byInvariant = new LinkedHashMap<>();
        if (atLeastOnce) {
            CutInvariants.applicable("at-least-once").forEach(n -> byInvariant.put(n, new ArrayList<>()));
        } else if (alternating()) {
            CutInvariants.applicable("alternating").forEach(n -> byInvariant.put(n, new ArrayList<>()));
        } else {
            byInvariant.put(CutInvariants.CONSISTENT_CUT, new ArrayList<>());
            byInvariant.put(o.mode().overtaking() ? CutInvariants.UNALIGNED_CHANNEL_STATE_BOUND
                    : CutInvariants.ALIGNED_NO_CHANNEL_STATE, new ArrayList<>());
            byInvariant.put(CutInvariants.EXACTLY_ONCE, new ArrayList<>());
        }
        if (o.fileJob() && !atLeastOnce) { // the two-phase-commit sink's promise, every exactly-once mode
            byInvariant.put(CutInvariants.NO_DUPLICATE_OUTPUT, new ArrayList<>());
            byInvariant.put(CutInvariants.OUTPUT_EXACTLY_ONCE, new ArrayList<>());
        } else if (o.fileJob()) { // and at-least-once mode's
            byInvariant.put(CutInvariants.OUTPUT_AT_LEAST_ONCE, new ArrayList<>());
        }
        CutInvariants.lifecycle(o.mode().overtaking()).forEach(n -> byInvariant.put(n, new ArrayList<>()));
        for (Violation v : r.violations()) {
            String name = switch (v.invariant()) {
                case CutInvariants.NO_DOUBLE_COUNT, CutInvariants.NO_SKIP ->
                        atLeastOnce ? v.invariant() : CutInvariants.CONSISTENT_CUT;
                default -> v.invariant();
            };
            byInvariant.computeIfAbsent(name, k -> new ArrayList<>()).add(v);
        }
        Map<String, String> verdicts = new LinkedHashMap<>();
        byInvariant.forEach((name, list) -> verdicts.put(name, !r.invariantsChecked() ? "not checked"
                : !list.isEmpty() ? "VIOLATED (" + list.size() + ")"
                : name.equals(CutInvariants.SWITCH_PROPAGATES) && !o.simulation()
                        ? "not checked (simulation runtime only: it reads two tasks' states at once)" : "holds"));
        return verdicts;
    }

    String text() {
        StringWriter text = new StringWriter();
        PrintWriter out = new PrintWriter(text);
        String unit = o.simulation() ? "steps" : "ms";
        out.printf("mode %s, runtime %s, %s, %d checkpoints completed, %d aborted, %d failure(s), %s %s%n",
                r.mode(), r.runtime(), o.fileJob() ? o.inputs().size() + " input file(s)" : o.records() + " records per source",
                r.checkpoints().size(), r.abortedCheckpoints(), r.failures(), time(r.elapsed(), o.simulation()), unit);
        if (resumedFrom != null) {
            out.println("job " + jobId + " resumed from " + (resumedFrom == 0 ? "its initial state" : "checkpoint " + resumedFrom));
        }
        for (String d : declined) {
            out.println("declined " + d);
        }
        for (CheckpointSummary c : r.checkpoints()) {
            CheckpointStats s = c.stats();
            out.printf("checkpoint %4d  duration %10s %s  alignment %10s %s  persisted %6d records %9d bytes  state %9d bytes%n",
                    c.id(), time(s.duration(), o.simulation()), unit, time(s.maxAlignment(), o.simulation()), unit,
                    s.persistedRecords(), s.persistedBytes(), s.stateBytes());
        }
        if (o.endOfInput()) {
            out.println("end of input: " + (r.finished() ? "reached, every task ended" : "NOT reached"));
        }
        if (alternating()) {
            out.println(switchLine());
        }
        verdicts().forEach((name, verdict) -> out.println(name + ": " + verdict));
        if (atLeastOnce()) {
            out.println("not promised in at-least-once mode: " + CutInvariants.NO_DOUBLE_COUNT + ", "
                    + CutInvariants.CONSISTENT_CUT + ", " + CutInvariants.EXACTLY_ONCE + " (not checked)");
        }
        r.violations().stream().limit(20).forEach(v -> out.println("  " + v.message()));
        if (r.violations().size() > 20) {
            out.println("  ... and " + (r.violations().size() - 20) + " more");
        }
        if (output != null) {
            out.println(output.text(o.output(), 50));
            if (atLeastOnce()) {
                out.println("output in at-least-once mode: " + (output.atLeastOnce()
                        ? "every input record committed at least once (" + output.duplicated() + " more than once)"
                        : "NOT every input record committed"));
            }
        }
        out.print(verdictLine());
        out.flush();
        return text.toString();
    }

    String verdictLine() {
        if (output != null && !output.holds(o.mode().deliveryGuarantee())) {
            return "verdict: VIOLATED";
        }
        return r.holds() ? "verdict: " + (atLeastOnce() ? "at-least-once" : "exactly-once") + " holds" : r.finished() ? "verdict: VIOLATED" : "verdict: NOT FINISHED";
    }

    String json() {
        StringBuilder b = new StringBuilder("{");
        b.append("\"mode\":").append(Json.str(r.mode()))
                .append(",\"runtime\":").append(Json.str(r.runtime()))
                .append(",\"recordsPerSource\":").append(o.records())
                .append(",\"seed\":").append(o.seed())
                .append(",\"timeUnit\":").append(Json.str(o.simulation() ? "steps" : "ns"))
                .append(",\"elapsed\":").append(r.elapsed())
                .append(",\"finished\":").append(r.finished())
                .append(",\"endOfInput\":").append(o.endOfInput())
                .append(",\"failures\":").append(r.failures())
                .append(",\"abortedCheckpoints\":").append(r.abortedCheckpoints())
                .append(",\"jobId\":").append(Json.str(jobId))
                .append(",\"resumedFrom\":").append(resumedFrom)
                .append(",\"declinedCheckpoints\":[")
                .append(String.join(",", declined.stream().map(Json::str).toList())).append(']')
                .append(",\"checkpoints\":[");
        for (int i = 0; i < r.checkpoints().size(); i++) {
            CheckpointSummary c = r.checkpoints().get(i);
            CheckpointStats s = c.stats();
            b.append(i == 0 ? "" : ",").append("{\"id\":").append(c.id());
            if (alternating()) {
                b.append(",\"switched\":").append(r.switchedCheckpoints().contains(c.id()))
                        .append(",\"savepoint\":").append(r.savepoints().contains(c.id()));
            }
            b
                    .append(",\"duration\":").append(s.duration())
                    .append(",\"alignment\":").append(s.maxAlignment())
                    .append(",\"persistedRecords\":").append(s.persistedRecords())
                    .append(",\"persistedBytes\":").append(s.persistedBytes())
                    .append(",\"stateBytes\":").append(s.stateBytes()).append('}');
        }
        b.append(']');
        if (alternating()) {
            b.append(",\"alignedTimeoutMs\":").append(o.mode().alignedTimeoutMillis())
                    .append(",\"switchedCheckpoints\":").append(r.switchedCheckpoints().size())
                    .append(",\"savepoints\":").append(r.savepoints().size());
        }
        b.append(",\"invariants\":{");
        int n = 0;
        for (Map.Entry<String, String> e : verdicts().entrySet()) {
            b.append(n++ == 0 ? "" : ",").append(Json.str(e.getKey())).append(':').append(Json.str(e.getValue()));
        }
        b.append("},\"violations\":[");
        for (int i = 0; i < r.violations().size(); i++) {
            Violation v = r.violations().get(i);
            b.append(i == 0 ? "" : ",").append("{\"invariant\":").append(Json.str(v.invariant()))
                    .append(",\"checkpoint\":").append(v.checkpointId())
                    .append(",\"operator\":").append(Json.str(v.operator()))
                    .append(",\"record\":").append(Json.str(v.record()))
                    .append(",\"actual\":").append(v.actual())
                    .append(",\"expected\":").append(v.expected())
                    .append(",\"message\":").append(Json.str(v.message())).append('}');
        }
        b.append(']');
        if (output != null) {
            b.append(",\"outputCheck\":").append(output.json(o.output()));
        }
        return b.append(",\"holds\":").append(r.holds() && (output == null || output.holds(o.mode().deliveryGuarantee()))).append('}').toString();
    }
}
