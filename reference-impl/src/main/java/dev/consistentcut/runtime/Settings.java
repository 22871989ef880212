package dev.consistentcut.runtime;

/** The range checks every settings record states its bounds with. Stateless. */
final class Settings {

    private Settings() {
    }

    static void requireAtLeast(String name, long value, long min) {
        if (value < min) {
            throw new IllegalArgumentException(name + " must be >= " + min + ", got " + value);
        }
    }

    static void requireProbability(String name, double p) {
        if (!(p >= 0 && p <= 1)) {
            throw new IllegalArgumentException(name + " must be within [0, 1], got " + p);
        }
    }
}
