package dev.consistentcut.bench;

/** How a scenario checkpoints: not at all (the throughput baseline), aligned, or unaligned barriers. */
public enum Mode {
    NONE("none"),
    ALIGNED("aligned"),
    UNALIGNED("unaligned");

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
