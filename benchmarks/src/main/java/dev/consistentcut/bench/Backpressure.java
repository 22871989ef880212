package dev.consistentcut.bench;

/**
 * The backpressure level of a scenario, set by the sink's per-record cost: none (the sink is as
 * fast as the engine), light (10,000 records/s) and heavy (1,000 records/s). Heavy is ten times
 * light so that the backlog ahead of an aligned barrier, measured in time, grows tenfold from one
 * to the other while the number of records in flight (full channels either way) stays the same.
 */
public enum Backpressure {
    NONE("none", 0),
    LIGHT("light", 100_000),
    HEAVY("heavy", 1_000_000);

    private final String label;
    private final long sinkNanosPerRecord;

    Backpressure(String label, long sinkNanosPerRecord) {
        this.label = label;
        this.sinkNanosPerRecord = sinkNanosPerRecord;
    }

    public String label() {
        return label;
    }

    /** The sink's cost per record; 0 for no artificial cost. */
    public long sinkNanosPerRecord() {
        return sinkNanosPerRecord;
    }
}
