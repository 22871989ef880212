package dev.consistentcut.channel;

import java.util.ArrayList;
import java.util.List;

/** A causal trace's channel clock for tests: it only records which of its calls came, in order ("put", "take", "restored"). */
final class RecordingClock implements ChannelClock {

    final List<String> events = new ArrayList<>();

    @Override
    public void put(boolean record, boolean overtaking) {
        events.add("put");
    }

    @Override
    public void take(boolean record) {
        events.add("take");
    }

    @Override
    public void restored(int records) {
        events.add("restored");
    }
}
