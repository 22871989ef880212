package dev.consistentcut.replay;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A step of the specification with its parameters, as the replay names it on both sides:
 * {@code EmitRecord(s1)}, {@code InjectBarrier(s1, 1)}, {@code ProcessRecord(join, s1->join)},
 * {@code ReceiveBarrier(join, s1->join)}, {@code TriggerCheckpoint(1)}, {@code CompleteCheckpoint(1)},
 * {@code AbortCheckpoint(1)}, {@code FailAndRestore}, {@code TimeoutAlignment(join, 1)},
 * {@code PrioritizeBarrier(join, s1->join)}, {@code NotifyCheckpointComplete(sink, 1)}. TLC
 * labels an edge of its state graph with the action's name only (or the definition that frames
 * it, {@link #action}); {@link #infer} reads the parameters from what the step changed.
 *
 * @param task the task (null for the coordinator's and the environment's steps)
 * @param edge the input channel "from->to" the step takes from (null where none)
 * @param checkpoint the checkpoint id (0 where none)
 */
record SpecStep(String action, String task, String edge, int checkpoint) {

    /** Whether the engine performs this step on its own (task steps, completion), not the environment. */
    boolean isEngineStep() {
        return !(action.equals("TriggerCheckpoint") || action.equals("AbortCheckpoint") || action.equals("FailAndRestore"));
    }

    /**
     * A source told of an abort before it injected the barrier ({@code NotifyCheckpointAborted(s, c)},
     * the spec's {@code SkipBarrier}): the engine has no such step, its coordinator simply never
     * hands a source the barrier of a checkpoint that is no longer pending. The step changes only
     * the source's {@code current[s]}, which the replay does not compare, so the engine stays put.
     */
    boolean isSkipBarrier(List<String> sources) {
        return action.equals("NotifyCheckpointAborted") && sources.contains(task);
    }

    @Override
    public String toString() {
        List<String> p = new ArrayList<>();
        if (task != null) {
            p.add(task);
        }
        if (edge != null) {
            p.add(edge);
        }
        if (checkpoint > 0) {
            p.add(Integer.toString(checkpoint));
        }
        return p.isEmpty() && action.equals("FailAndRestore") ? action : action + "(" + String.join(", ", p) + ")";
    }

    /**
     * The step TLC's edge {@code from -> to} labelled {@code action} stands for.
     *
     * @throws IllegalArgumentException for an action the replay does not map, or a change that
     *     does not determine the parameters (a gap in the mapping, reported as such)
     */
    static SpecStep infer(SpecState from, SpecState to, String label) {
        Map<String, String> a = from.components;
        Map<String, String> b = to.components;
        String action = action(from, to, label);
        switch (action) {
            case "EmitRecord" -> {
                return new SpecStep(action, only(from.sources, s -> !a.get("offset[" + s + "]").equals(b.get("offset[" + s + "]")), action), null, 0);
            }
            case "InjectBarrier" -> {
                String s = only(from.sources, x -> !a.get("current[" + x + "]").equals(b.get("current[" + x + "]")), action);
                return new SpecStep(action, s, null, Integer.parseInt(b.get("current[" + s + "]")));
            }
            case "SendEndOfPartition" -> {
                return new SpecStep(action, only(from.sources, x -> !a.get("ended[" + x + "]").equals(b.get("ended[" + x + "]")), action), null, 0);
            }
            case "ProcessRecord", "ReceiveBarrier", "ReceiveCancelBarrier", "ReceiveEndOfPartition" -> {
                String e = only(from.edges, x -> {
                    String before = a.get("chan[" + x + "]");
                    return !before.isEmpty() && tail(before).equals(b.get("chan[" + x + "]"));
                }, action);
                return new SpecStep(action, e.substring(e.indexOf("->") + 2), e, 0);
            }
            case "TriggerCheckpoint" -> {
                return new SpecStep(action, null, null, checkpoint(from, a, b, "none", "pending", action));
            }
            case "CompleteCheckpoint" -> {
                return new SpecStep(action, null, null, checkpoint(from, a, b, "pending", "completed", action));
            }
            case "AbortCheckpoint" -> {
                return new SpecStep(action, null, null, checkpoint(from, a, b, "pending", "aborted", action));
            }
            case "NotifyCheckpointAborted" -> {
                // Abandon (operators) and SkipBarrier (sources) both set current[t] to the aborted id;
                // an operator abandoning the checkpoint it handles changes handling[t] instead of current[t].
                List<String> tasks = new ArrayList<>(from.sources);
                tasks.addAll(from.operators);
                String t = only(tasks, x -> !a.get("current[" + x + "]").equals(b.get("current[" + x + "]"))
                        || !java.util.Objects.equals(a.get("handling[" + x + "]"), b.get("handling[" + x + "]")), action);
                return new SpecStep(action, t, null, Integer.parseInt(b.get("current[" + t + "]")));
            }
            case "FailAndRestore" -> {
                return new SpecStep(action, null, null, 0);
            }
            case "TimeoutAlignment" -> {
                // Active or passive, the task joins switchedAt[c] (it handles c unaligned, or will).
                String c = only(ids(from), x -> !a.get("switchedAt[" + x + "]").equals(b.get("switchedAt[" + x + "]")), action);
                List<String> joined = new ArrayList<>(List.of(b.get("switchedAt[" + c + "]").split(",")));
                joined.removeAll(List.of(a.get("switchedAt[" + c + "]").split(",")));
                return new SpecStep(action, only(joined, x -> true, action), null, Integer.parseInt(c));
            }
            case "PrioritizeBarrier" -> {
                String e = only(from.edges, x -> !a.get("chan[" + x + "]").equals(b.get("chan[" + x + "]")), action);
                return new SpecStep(action, e.substring(e.indexOf("->") + 2), e, 0);
            }
            case "NotifyCheckpointComplete" -> {
                // Of the newest completed checkpoint (the replay model's ReplayNotifyRule): it
                // commits transactions, which leave the sink's uncommitted records (a notification
                // that commits nothing is a stuttering step).
                String t = only(from.sinks, x -> !a.get("uncommitted[" + x + "]").equals(b.get("uncommitted[" + x + "]")), action);
                return new SpecStep(action, t, null, Integer.parseInt(a.get("latest")));
            }
            default -> throw new IllegalArgumentException("the replay does not map the action " + action + " (yet)");
        }
    }

    /**
     * The action an edge stands for. TLC labels an edge with the definition whose body is the
     * whole disjunct of the next-state relation; where a protocol frames a shared action for its
     * own variables ({@code CompleteCheckpoint(c) /\ UNCHANGED alternatingVars}), the label is the
     * enclosing definition ({@code Progress}, {@code Next}) or the framing one
     * ({@code FailAndRestoreAlternating}), and the action is read from what the step changed.
     */
    static String action(SpecState from, SpecState to, String label) {
        if (label.startsWith("FailAndRestore")) {
            return "FailAndRestore";
        }
        if (!label.equals("Progress") && !label.equals("Next")) {
            return label;
        }
        Map<String, String> a = from.components;
        Map<String, String> b = to.components;
        for (int c = 1; c <= from.checkpoints; c++) {
            String was = a.get("ckpt[" + c + "]");
            String now = b.get("ckpt[" + c + "]");
            if (was.equals(now)) {
                continue;
            }
            if (was.equals("none")) {
                return "TriggerCheckpoint";
            }
            if (now.equals("completed")) {
                return "CompleteCheckpoint";
            }
        }
        for (int c = 1; c <= from.checkpoints; c++) {
            if (a.get("ckpt[" + c + "]").equals("pending") && b.get("ckpt[" + c + "]").equals("aborted")) {
                return "AbortCheckpoint";
            }
        }
        for (String s : from.sources) {
            if (!a.get("offset[" + s + "]").equals(b.get("offset[" + s + "]"))) {
                return "EmitRecord";
            }
            if (!a.get("ended[" + s + "]").equals(b.get("ended[" + s + "]"))) {
                return "SendEndOfPartition";
            }
        }
        for (String t : from.sinks) {
            if (!a.get("uncommitted[" + t + "]").equals(b.get("uncommitted[" + t + "]"))) {
                return "NotifyCheckpointComplete";
            }
        }
        throw new IllegalArgumentException("cannot tell which action of " + label + " the step is");
    }

    private static List<String> ids(SpecState s) {
        List<String> out = new ArrayList<>();
        for (int c = 1; c <= s.checkpoints; c++) {
            out.add(Integer.toString(c));
        }
        return out;
    }

    private static int checkpoint(SpecState from, Map<String, String> a, Map<String, String> b, String was, String now, String action) {
        List<Integer> ids = new ArrayList<>();
        for (int c = 1; c <= from.checkpoints; c++) {
            if (was.equals(a.get("ckpt[" + c + "]")) && now.equals(b.get("ckpt[" + c + "]"))) {
                ids.add(c);
            }
        }
        if (ids.size() != 1) {
            throw new IllegalArgumentException(action + ": " + ids.size() + " checkpoints went from " + was + " to " + now);
        }
        return ids.get(0);
    }

    private static String only(List<String> names, java.util.function.Predicate<String> changed, String action) {
        List<String> hits = names.stream().filter(changed).toList();
        if (hits.size() != 1) {
            throw new IllegalArgumentException(action + ": cannot tell its parameter from the states (" + hits.size()
                    + " candidates: " + hits + ")");
        }
        return hits.get(0);
    }

    /** The canonical sequence without its head. */
    static String tail(String seq) {
        int sp = seq.indexOf(' ');
        return sp < 0 ? "" : seq.substring(sp + 1);
    }
}
