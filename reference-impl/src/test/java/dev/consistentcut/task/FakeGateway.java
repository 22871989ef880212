package dev.consistentcut.task;

import dev.consistentcut.checkpoint.Acknowledgement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/** A gateway for task tests: barriers to inject are set by hand; acknowledgements are collected. */
public final class FakeGateway implements CoordinatorGateway {

    public final Map<String, Long> nextBarrier = new HashMap<>();
    public final Map<Long, Long> triggerTimes = new HashMap<>();
    public final List<Acknowledgement> acks = new ArrayList<>();
    long now;
    /** Checkpoints declined, in order (DeclineCheckpoint). */
    public final List<Long> declined = new ArrayList<>();
    /** Final states of tasks that ended, in order. */
    public final List<Acknowledgement> ended = new ArrayList<>();
    /** Abort notifications waiting per task (a test puts them; the task takes them). */
    public final Map<String, java.util.TreeSet<Long>> news = new HashMap<>();

    /** Completion notifications waiting per task (a test puts them; the task takes them). */
    public final Map<String, java.util.TreeSet<Long>> completions = new HashMap<>();
    /** Checkpoints a task declines on its first barrier (declinesOnFirstBarrier), and each question asked. */
    public final java.util.Set<Long> declineOnFirstBarrier = new java.util.HashSet<>();
    public final List<Long> declineAsked = new ArrayList<>();

    @Override
    public OptionalLong nextCompleteNotificationFor(String task) {
        java.util.TreeSet<Long> n = completions.get(task);
        return n == null || n.isEmpty() ? OptionalLong.empty() : OptionalLong.of(n.first());
    }

    @Override
    public void completeNotified(String task, long checkpointId) {
        java.util.TreeSet<Long> n = completions.get(task);
        if (n != null) {
            n.remove(checkpointId);
        }
    }

    @Override
    public boolean declinesOnFirstBarrier(String task, long checkpointId) {
        declineAsked.add(checkpointId);
        return declineOnFirstBarrier.contains(checkpointId);
    }

    @Override
    public OptionalLong nextAbortNotificationFor(String task) {
        java.util.TreeSet<Long> n = news.get(task);
        return n == null || n.isEmpty() ? OptionalLong.empty() : OptionalLong.of(n.first());
    }

    @Override
    public void abortNotified(String task, long checkpointId) {
        java.util.TreeSet<Long> n = news.get(task);
        if (n != null) {
            n.remove(checkpointId);
        }
    }

    @Override
    public void declineCheckpoint(String task, long checkpointId) {
        declined.add(checkpointId);
    }

    @Override
    public void taskEnded(Acknowledgement finalState) {
        ended.add(finalState);
    }

    @Override
    public OptionalLong nextBarrierFor(String sourceTask) {
        Long c = nextBarrier.get(sourceTask);
        return c == null ? OptionalLong.empty() : OptionalLong.of(c);
    }

    @Override
    public void acknowledge(Acknowledgement ack) {
        acks.add(ack);
        if (ack.isSource()) {
            nextBarrier.remove(ack.task());
        }
    }

    @Override
    public long triggerTime(long checkpointId) {
        return triggerTimes.getOrDefault(checkpointId, 0L);
    }

    @Override
    public long now() {
        return now;
    }

    /** Alternating mode: checkpoints whose alignment timer has fired (a test advances time by adding them). */
    public final java.util.Set<Long> timedOut = new java.util.HashSet<>();
    /** Alternating mode: checkpoints this task handled unaligned (the spec's switchedAt), each once, in order. */
    public final List<Long> switched = new ArrayList<>();
    /** Checkpoints that are savepoints. */
    public final java.util.Set<Long> savepoints = new java.util.HashSet<>();

    @Override
    public boolean alignmentTimedOut(long checkpointId, long timeoutMillis) {
        return timedOut.contains(checkpointId);
    }

    @Override
    public void alignmentSwitched(String task, long checkpointId) {
        if (!switched.contains(checkpointId)) {
            switched.add(checkpointId);
        }
    }

    @Override
    public boolean isSavepoint(long checkpointId) {
        return savepoints.contains(checkpointId);
    }
}
