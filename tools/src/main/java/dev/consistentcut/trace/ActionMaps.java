package dev.consistentcut.trace;

import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import dev.consistentcut.task.RunEvent;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;

/**
 * Turns an event given by its spec name and a map of parameters (keys as the trace's fields:
 * {@code task}, {@code channel}, {@code checkpoint}, ...) into its {@link RunEvent}, checking each
 * parameter in the order the trace line writes it, so that the first one missing is named. For
 * {@link TraceRecorder#onAction}; the engine builds its events typed. Used on one thread at a time.
 */
final class ActionMaps {

    private final String trace;
    private final boolean alternating;
    /** The completed checkpoint of an id, or null: what the run passed to {@link TraceRecorder#checkpointCompleted}. */
    private final LongFunction<CompletedCheckpoint> completed;

    ActionMaps(String trace, boolean alternating, LongFunction<CompletedCheckpoint> completed) {
        this.trace = trace;
        this.alternating = alternating;
        this.completed = completed;
    }

    RunEvent event(String action, Map<String, Object> params) {
        return switch (action) {
            case "TriggerCheckpoint" -> new RunEvent.TriggerCheckpoint(num(action, params, "checkpoint"),
                    Boolean.TRUE.equals(params.get("savepoint")));
            case "TimeoutAlignment" -> {
                String task = str(action, params, "task");
                long c = num(action, params, "checkpoint");
                Map<RecordId, Integer> snapshot = params.containsKey("snapshot") ? ledger(action, params) : null;
                yield new RunEvent.TimeoutAlignment(task, c, snapshot, records(params, "overtaken"),
                        orEmpty(records(params, "prioritized")));
            }
            case "PrioritizeBarrier" -> new RunEvent.PrioritizeBarrier(str(action, params, "task"), -1,
                    str(action, params, "channel"), num(action, params, "checkpoint"), orEmpty(records(params, "prioritized")));
            case "AbortCheckpoint" -> new RunEvent.AbortCheckpoint(num(action, params, "checkpoint"),
                    params.get("declinedBy") instanceof String task ? task : null);
            case "NotifyCheckpointAborted" -> new RunEvent.NotifyCheckpointAborted(str(action, params, "task"),
                    num(action, params, "checkpoint"), ids(action, params, "abandoned"), bool(action, params, "remembered", ""));
            case "SendEndOfPartition" -> new RunEvent.SendEndOfPartition(str(action, params, "task"),
                    num(action, params, "offset"));
            case "ReceiveCancelBarrier" -> new RunEvent.ReceiveCancelBarrier(str(action, params, "task"), -1,
                    str(action, params, "channel"), num(action, params, "checkpoint"), ids(action, params, "abandoned"));
            case "ReceiveEndOfPartition" -> {
                String task = str(action, params, "task");
                String channel = str(action, params, "channel");
                boolean ended = bool(action, params, "ended", "");
                boolean snapshot = params.containsKey("snapshot");
                yield new RunEvent.ReceiveEndOfPartition(task, -1, channel, ended,
                        snapshot ? num(action, params, "checkpoint") : 0, snapshot ? ledger(action, params) : null);
            }
            case "EmitRecord" -> new RunEvent.EmitRecord(str(action, params, "task"), record(action, params));
            case "InjectBarrier" -> {
                String task = str(action, params, "task");
                long c = num(action, params, "checkpoint");
                long offset = num(action, params, "offset");
                Map<String, List<Record>> overtaken = records(params, "overtaken");
                if (overtaken == null) {
                    throw missing(action, params, "overtaken", "a map from channel id to records");
                }
                yield new RunEvent.InjectBarrier(task, c, offset, overtaken, !Boolean.FALSE.equals(params.get("aligned")));
            }
            case "ProcessRecord" -> new RunEvent.ProcessRecord(str(action, params, "task"), -1,
                    str(action, params, "channel"), record(action, params), bool(action, params, "persisted", ""));
            case "ReceiveBarrier" -> receiveBarrier(action, params);
            case "CompleteCheckpoint" -> {
                long id = num(action, params, "checkpoint");
                CompletedCheckpoint cp = completed.apply(id);
                if (cp == null) {
                    throw new IllegalStateException("trace " + trace + ": CompleteCheckpoint(" + id
                            + ") without the completed checkpoint: pass checkpointCompleted as the run's onCheckpoint");
                }
                yield new RunEvent.CompleteCheckpoint(cp);
            }
            case "NotifyCheckpointComplete" -> new RunEvent.NotifyCheckpointComplete(str(action, params, "task"),
                    num(action, params, "checkpoint"), ids(action, params, "committed"));
            case "FailAndRestore" -> new RunEvent.FailAndRestore(num(action, params, "checkpoint"), Map.of());
            default -> throw new IllegalArgumentException("trace " + trace + ": '" + action + "' is no action of the specification");
        };
    }

    private RunEvent receiveBarrier(String action, Map<String, Object> params) {
        String task = str(action, params, "task");
        String channel = str(action, params, "channel");
        long c = num(action, params, "checkpoint");
        boolean aligned = !alternating || bool(action, params, "aligned", " (alternating mode)");
        List<Long> abandoned = params.containsKey("abandoned") ? ids(action, params, "abandoned") : List.of();
        Map<RecordId, Integer> snapshot = params.containsKey("snapshot") ? ledger(action, params) : null;
        return new RunEvent.ReceiveBarrier(task, -1, channel, c, aligned, abandoned, snapshot,
                records(params, "overtaken"), orEmpty(records(params, "prioritized")));
    }

    /** A map from channel id to records, or null when absent. */
    private static Map<String, List<Record>> records(Map<String, Object> params, String key) {
        if (!(params.get(key) instanceof Map<?, ?> m)) {
            return null;
        }
        Map<String, List<Record>> out = new LinkedHashMap<>();
        m.forEach((k, v) -> {
            List<Record> list = new ArrayList<>();
            for (Object r : (List<?>) v) {
                list.add((Record) r);
            }
            out.put((String) k, list);
        });
        return out;
    }

    private static Map<String, List<Record>> orEmpty(Map<String, List<Record>> m) {
        return m == null ? Map.of() : m;
    }

    private List<Long> ids(String action, Map<String, Object> params, String key) {
        if (!(params.get(key) instanceof List<?> list)) {
            throw missing(action, params, key, "a list of checkpoint ids");
        }
        List<Long> out = new ArrayList<>();
        for (Object o : list) {
            out.add(((Number) o).longValue());
        }
        return out;
    }

    private boolean bool(String action, Map<String, Object> params, String key, String note) {
        if (params.get(key) instanceof Boolean b) {
            return b;
        }
        throw missing(action, params, key, "a boolean" + note);
    }

    @SuppressWarnings("unchecked")
    private Map<RecordId, Integer> ledger(String action, Map<String, Object> params) {
        if (params.get("snapshot") instanceof Map<?, ?> m) {
            return (Map<RecordId, Integer>) m;
        }
        throw missing(action, params, "snapshot", "a map from record id to count");
    }

    private String str(String action, Map<String, Object> params, String key) {
        if (params.get(key) instanceof String s) {
            return s;
        }
        throw missing(action, params, key, "a string");
    }

    private long num(String action, Map<String, Object> params, String key) {
        if (params.get(key) instanceof Number n) {
            return n.longValue();
        }
        throw missing(action, params, key, "a number");
    }

    private RecordId record(String action, Map<String, Object> params) {
        if (params.get("record") instanceof RecordId r) {
            return r;
        }
        throw missing(action, params, "record", "a RecordId");
    }

    private IllegalArgumentException missing(String action, Map<String, Object> params, String key, String what) {
        return new IllegalArgumentException("trace " + trace + ": " + action + " needs parameter '" + key + "' as "
                + what + ", got " + params);
    }
}
