package dev.consistentcut.bench;

/** One cell of the benchmark grid: backpressure level x skew x checkpoint mode. */
public record Scenario(Backpressure backpressure, boolean skew, Mode mode) {

    /** A short stable name, e.g. {@code heavy/skew/aligned}. */
    public String name() {
        return backpressure.label() + "/" + (skew ? "skew" : "even") + "/" + mode.label();
    }

    @Override
    public String toString() {
        return name();
    }
}
