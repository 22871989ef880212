package dev.consistentcut.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.text.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store trace of a small durable run (StoreTraceRecorder): well-formed, in the spec's
 * vocabulary, with the shape IncrementalCheckpointStore.tla gives a checkpoint's life; and the
 * broken twin's trace (BrokenStoreTrace) deletes a file a checkpoint in the store references,
 * which the correct store's never does. TLC's verdicts on both: tests/trace-validation.sh.
 */
class StoreTraceTest {

    private static final Set<String> ACTIONS = Set.of("TriggerCheckpoint", "UploadFile", "AcknowledgeCheckpoint",
            "CompleteCheckpoint", "AbortCheckpoint", "SubsumeCheckpoint", "UnregisterCheckpoint", "DeleteFile",
            "RestoreCheckpoint");

    @TempDir
    Path tmp;

    @Test
    void recordsTheStoresActionsProjectedOntoOneTask() throws IOException {
        Path file = tmp.resolve("store.ndjson");
        Path dir = tmp.resolve("dir");
        StoreTraces.record(file, dir, BrokenStoreTrace.SETTINGS,
                new StoreTraceRecorder(dir, BrokenStoreTrace.SETTINGS.task(), BrokenStoreTrace.SETTINGS.retain()));
        List<String> lines = Files.readAllLines(file);
        assertEquals("store", TraceToTla.convert(file).mode());
        Map<?, ?> header = (Map<?, ?>) Json.parse(lines.get(0));
        assertEquals("count#0", header.get("task"));
        assertEquals(2L, header.get("retained"));
        List<Map<?, ?>> events = events(lines);
        Set<String> names = new HashSet<>();
        events.forEach(e -> names.add((String) e.get("event")));
        assertTrue(ACTIONS.containsAll(names), names::toString);
        assertTrue(names.containsAll(Set.of("TriggerCheckpoint", "UploadFile", "AcknowledgeCheckpoint",
                "CompleteCheckpoint", "SubsumeCheckpoint", "UnregisterCheckpoint", "DeleteFile", "RestoreCheckpoint")),
                names::toString);
        // A checkpoint's life in the spec's order: trigger (its handle), its uploads, acknowledge, complete.
        long open = 0;
        boolean reused = false;
        for (Map<?, ?> e : events) {
            String name = (String) e.get("event");
            Object c = e.get("checkpoint");
            switch (name) {
                case "TriggerCheckpoint" -> {
                    assertEquals(0, open, "a trigger while checkpoint " + open + " is open: " + e);
                    open = (Long) c;
                    for (Object o : (List<?>) e.get("handle")) {
                        reused |= (Long) ((List<?>) o).get(1) < open;
                    }
                }
                case "UploadFile" -> assertEquals(List.of(((List<?>) e.get("file")).get(0), c), e.get("file"));
                case "AcknowledgeCheckpoint" -> assertEquals(open, c);
                case "CompleteCheckpoint" -> {
                    assertEquals(open, c);
                    open = 0;
                }
                default -> assertEquals(0, open, name + " inside the write of checkpoint " + open);
            }
        }
        assertTrue(reused, "no checkpoint reused a shared file of an older one");
        assertFalse(deletesAReferencedFile(events), "the correct store deleted a file the store still references");
    }

    /**
     * A write that fails (a full disk, {@code --fail-write}) aborts the checkpoint being written,
     * which never completes; no later checkpoint reuses what it uploaded, and the next store
     * deletes it (FLINK-30461 is the leak when that cleanup is missing).
     */
    @Test
    void aFailedWriteAbortsItsCheckpointAndItsUploadsAreDeleted() throws IOException {
        Path file = tmp.resolve("fail-write.ndjson");
        Path dir = tmp.resolve("dir");
        StoreTraces.Settings s = BrokenStoreTrace.SETTINGS;
        StoreTraces.record(file, dir, s, new FailingWriteRecorder(dir, s.task(), s.retain(), 3));
        List<Map<?, ?>> events = events(Files.readAllLines(file));
        Map<?, ?> abort = events.stream().filter(e -> e.get("event").equals("AbortCheckpoint")).findFirst()
                .orElseThrow(() -> new AssertionError("no AbortCheckpoint: " + events));
        Object c = abort.get("checkpoint");
        int at = events.indexOf(abort);
        List<Object> uploads = new ArrayList<>();
        for (Map<?, ?> e : events.subList(0, at)) {
            if (e.get("event").equals("UploadFile") && e.get("checkpoint").equals(c)) {
                uploads.add(e.get("file"));
            }
        }
        assertFalse(uploads.isEmpty(), "the failed write was not one of checkpoint " + c + "'s uploads after the first");
        List<Object> deletedAfter = new ArrayList<>();
        for (Map<?, ?> e : events.subList(at + 1, events.size())) {
            assertFalse(e.get("event").equals("CompleteCheckpoint") && e.get("checkpoint").equals(c),
                    "aborted checkpoint " + c + " completed");
            if (e.get("event").equals("DeleteFile")) {
                deletedAfter.add(e.get("file"));
            }
            if (e.get("event").equals("TriggerCheckpoint")) {
                for (Object o : (List<?>) e.get("handle")) {
                    assertFalse(((List<?>) o).get(1).equals(c), "checkpoint " + e.get("checkpoint")
                            + " reuses file " + o + " of aborted checkpoint " + c + ", which is deleted");
                }
            }
        }
        assertTrue(deletedAfter.containsAll(uploads), "uploads " + uploads + " of aborted checkpoint " + c
                + " not deleted: " + deletedAfter);
        assertFalse(deletesAReferencedFile(events), "the store deleted a file the store still references");
    }

    @Test
    void theBrokenTwinDeletesAFileACheckpointInTheStoreReferences() throws IOException {
        Path file = BrokenStoreTrace.record(tmp, tmp.resolve("dir"));
        assertEquals("store", TraceToTla.convert(file).mode());
        assertTrue(deletesAReferencedFile(events(Files.readAllLines(file))), "the twin's bug did not show");
    }

    private static List<Map<?, ?>> events(List<String> lines) {
        List<Map<?, ?>> events = new ArrayList<>();
        lines.subList(1, lines.size()).forEach(l -> events.add((Map<?, ?>) Json.parse(l)));
        return events;
    }

    /** Whether a DeleteFile removes a remote file that a checkpoint in the store (as last recorded) references. */
    private static boolean deletesAReferencedFile(List<Map<?, ?>> events) {
        Map<Object, List<?>> handles = new HashMap<>();
        List<?> store = List.of();
        for (Map<?, ?> e : events) {
            switch ((String) e.get("event")) {
                case "TriggerCheckpoint" -> handles.put(e.get("checkpoint"), (List<?>) e.get("handle"));
                case "CompleteCheckpoint", "SubsumeCheckpoint" -> store = (List<?>) e.get("store");
                case "DeleteFile" -> {
                    for (Object c : store) {
                        if (handles.getOrDefault(c, List.of()).contains(e.get("file"))) {
                            return true;
                        }
                    }
                }
                default -> {
                    // no reference changes
                }
            }
        }
        return false;
    }
}
