package dev.consistentcut.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.barrier.BarrierMode;
import dev.consistentcut.text.Json;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The conformance check of Flink runs (spec/traces/TraceFlink*.tla), without Flink: engine runs
 * seen as the Flink harness would see them (FlinkProjection: only what user functions observe)
 * must be accepted, and their broken twins, user code that is wrong
 * (docs/conformance-spec.md, "Broken twins"), rejected at the event they break. Tagged "long":
 * each case is a TLC run; the build leaves them out unless run with -Dtools.excludedGroups=none.
 */
@Tag("long")
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class FlinkTraceTest {

    @TempDir
    Path dir;

    /** An engine run recorded by the simulation runtime, projected; the lines of its Flink trace. */
    private List<String> projected(String job, BarrierMode mode, int failures, boolean endOfInput) throws Exception {
        Path engine = dir.resolve(job + "-" + mode.name() + "-engine.ndjson");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int exit = TraceTool.record(engine, TraceJobs.build(job, 6, 2, 11, 0), job, mode,
                new TraceTool.Settings(false, 11, 5, 1, failures, 0.02, 0, true, endOfInput),
                new PrintStream(out, true, StandardCharsets.UTF_8));
        assertEquals(0, exit, out.toString(StandardCharsets.UTF_8));
        List<String> lines = FlinkProjection.project(Files.readAllLines(engine));
        if (failures > 0) {
            assertTrue(lines.stream().anyMatch(l -> l.contains("\"InitializeState\"") && !l.contains("\"restored\":0")),
                    "no restore from a checkpoint in " + engine);
        }
        return lines;
    }

    private TraceValidator.Verdict validate(String name, List<String> lines) throws Exception {
        Path trace = dir.resolve(name + ".ndjson");
        Files.write(trace, lines);
        return Tlc.validator(dir.resolve("logs")).validate(trace);
    }

    private void assertAccepted(String name, List<String> lines) throws Exception {
        TraceValidator.Verdict v = validate(name, lines);
        assertEquals(TraceValidator.Outcome.ACCEPTED, v.outcome(), v.report());
        assertEquals(lines.size() - 1, v.events());
    }

    private void assertRejectedAt(String name, FlinkProjection.Edited twin) throws Exception {
        TraceValidator.Verdict v = validate(name, twin.lines());
        assertEquals(TraceValidator.Outcome.REJECTED, v.outcome(), v.report());
        assertEquals(twin.event(), v.unexplainedEvent(), v.report());
    }

    private static boolean is(Map<String, Object> ev, String event) {
        return event.equals(ev.get("event"));
    }

    private static boolean isSource(Map<String, Object> ev) {
        return ev.containsKey("offset");
    }

    @Test
    void alignedRunsWithFailuresAreAccepted() throws Exception {
        assertAccepted("join-aligned", projected("join", BarrierHandlers.aligned(), 2, true));
        assertAccepted("diamond-aligned", projected("diamond", BarrierHandlers.aligned(), 2, true));
        assertAccepted("demo-aligned", projected("demo", BarrierHandlers.aligned(), 2, false));
    }

    @Test
    void unalignedRunsWithFailuresAreAccepted() throws Exception {
        assertAccepted("join-unaligned", projected("join", BarrierHandlers.unaligned(), 2, true));
        assertAccepted("diamond-unaligned", projected("diamond", BarrierHandlers.unaligned(), 2, true));
    }

    @Test
    void atLeastOnceRunsWithFailuresAreAccepted() throws Exception {
        assertAccepted("join-at-least-once", projected("join", BarrierHandlers.atLeastOnce(), 2, true));
        assertAccepted("diamond-at-least-once", projected("diamond", BarrierHandlers.atLeastOnce(), 2, true));
    }

    /** An alignment timeout of 0 ms: every checkpoint switches to unaligned (hidden TimeoutAlignment). */
    @Test
    void alternatingRunsWithSwitchesAndFailuresAreAccepted() throws Exception {
        assertAccepted("join-alternating", projected("join", BarrierHandlers.alternating(0), 2, true));
        assertAccepted("diamond-alternating", projected("diamond", BarrierHandlers.alternating(0), 2, true));
    }

    /**
     * The alternating trace module merges states its view calls equal (TraceFlinkAlternating.tla):
     * a wrong value at the end of a run, after both failures and every switch, is still rejected
     * at its event, the last operator snapshot with one record too many.
     */
    @Test
    void anAlternatingLateSnapshotWithAnExtraRecordIsRejectedAtIt() throws Exception {
        List<String> lines = projected("diamond", BarrierHandlers.alternating(0), 2, true);
        java.util.function.Predicate<Map<String, Object>> opSnapshot = ev -> is(ev, "SnapshotState") && !isSource(ev);
        int last = (int) lines.stream().skip(1).map(l -> FlinkProjection.map(Json.parse(l))).filter(opSnapshot).count();
        assertRejectedAt("alternating-extra-record-late", FlinkProjection.edit(lines, opSnapshot, last,
                FlinkTraceTest::oneMoreCopy));
    }

    /** The twins are caught in every mode: the unaligned one, of a source's offset. */
    @Test
    void anUnalignedSourceOffsetOnePastTheBarrierIsRejectedAtItsSnapshot() throws Exception {
        List<String> lines = projected("diamond", BarrierHandlers.unaligned(), 2, true);
        assertRejectedAt("unaligned-offset-late", FlinkProjection.edit(lines,
                ev -> is(ev, "SnapshotState") && isSource(ev), 2, ev -> {
                    ev.put("offset", (Long) ev.get("offset") + 1);
                    return ev;
                }));
    }

    /** Twin 1: a source that records, in snapshotState, the offset after one more record. */
    @Test
    void aSourceOffsetOnePastTheBarrierIsRejectedAtItsSnapshot() throws Exception {
        List<String> lines = projected("join", BarrierHandlers.aligned(), 2, true);
        assertRejectedAt("offset-late", FlinkProjection.edit(lines, ev -> is(ev, "SnapshotState") && isSource(ev), 1, ev -> {
            ev.put("offset", (Long) ev.get("offset") + 1);
            return ev;
        }));
    }

    /** Twin 2/3: an operator whose snapshot holds a record more than it processed. */
    @Test
    void aSnapshotWithAnExtraRecordIsRejectedAtIt() throws Exception {
        List<String> lines = projected("join", BarrierHandlers.aligned(), 2, true);
        assertRejectedAt("extra-record", FlinkProjection.edit(lines, ev -> is(ev, "SnapshotState") && !isSource(ev), 1,
                FlinkTraceTest::oneMoreCopy));
    }

    /** Twin 4: a restore that replays from offset 0 while the operators keep their restored state. */
    @Test
    void aRestoreFromOffsetZeroWithStateKeptIsRejectedAtIt() throws Exception {
        List<String> lines = projected("join", BarrierHandlers.aligned(), 2, true);
        assertRejectedAt("replay-from-zero", FlinkProjection.edit(lines,
                ev -> is(ev, "InitializeState") && isSource(ev) && (Long) ev.get("offset") > 0, 1, ev -> {
                    ev.put("offset", 0L);
                    return ev;
                }));
    }

    /** Twin 4': a record processed twice (a non-idempotent replay). */
    @Test
    void aRecordProcessedTwiceIsRejectedAtTheSecond() throws Exception {
        List<String> lines = projected("join", BarrierHandlers.aligned(), 2, true);
        int k = 1;
        while (!lines.get(k).contains("\"ProcessRecord\"")) {
            k++;
        }
        assertRejectedAt("processed-twice", new FlinkProjection.Edited(FlinkProjection.duplicate(lines, k), k + 1));
    }

    /** The bag with one more copy of its first record (or, empty, one record of the first source). */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> oneMoreCopy(Map<String, Object> ev) {
        List<Object> bag = new ArrayList<>((List<Object>) ev.get("snapshot"));
        if (bag.isEmpty()) {
            bag.add(List.of(Map.of("src", "left#0", "off", 0L), 1L));
        } else {
            List<Object> first = (List<Object>) bag.get(0);
            bag.set(0, List.of(first.get(0), (Long) first.get(1) + 1));
        }
        ev.put("snapshot", bag);
        return ev;
    }
}
