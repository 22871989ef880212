package dev.consistentcut.bench;

/**
 * How a scenario checkpoints: not at all (the throughput baseline), aligned, unaligned barriers,
 * or alternating (aligned with an alignment timeout of {@link JobShape#ALIGNED_TIMEOUT}, switching
 * to unaligned when it passes: Flink's aligned-checkpoint-timeout).
 */
public enum Mode {
    NONE("none"),
    ALIGNED("aligned"),
    UNALIGNED("unaligned"),
    ALTERNATING("alternating");

    private final String label;

    Mode(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    public boolean checkpoints() {
        return this != NONE;
    }
}
