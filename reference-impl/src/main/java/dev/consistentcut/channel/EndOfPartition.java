package dev.consistentcut.channel;

/**
 * End of partition (Flink's {@code EndOfPartitionEvent}): the sender has ended, nothing follows on
 * this channel. Always in-band, behind every record and barrier sent before it. A singleton.
 */
public enum EndOfPartition implements ChannelElement {
    INSTANCE;

    @Override
    public String toString() {
        return "EndOfPartition";
    }
}
