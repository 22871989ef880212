package dev.consistentcut.task;

import dev.consistentcut.checkpoint.Acknowledgement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/** A gateway for task tests: barriers to inject are set by hand; acknowledgements are collected. */
final class FakeGateway implements CoordinatorGateway {

    final Map<String, Long> nextBarrier = new HashMap<>();
    final Map<Long, Long> triggerTimes = new HashMap<>();
    final List<Acknowledgement> acks = new ArrayList<>();
    long now;

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
}
