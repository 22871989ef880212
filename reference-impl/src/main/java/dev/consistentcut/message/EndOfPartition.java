package dev.consistentcut.message;

/**
 * End of partition (Flink's {@code EndOfPartitionEvent}): the sender has ended, nothing follows on
 * this channel. Always in-band, behind every record and barrier sent before it. A singleton.
 */
public enum EndOfPartition implements Message {
    INSTANCE;

    @Override
    public String toString() {
        return "EndOfPartition";
    }
}
