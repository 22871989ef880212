package dev.consistentcut.stress;

/**
 * Quick (CI, the default) or long (night run, {@code -Dstress.long=true}) settings for the
 * lincheck and property tests: the same checks, more scenarios.
 */
public final class StressMode {

    /** True when the run was started with {@code -Dstress.long=true}. */
    public static final boolean LONG = Boolean.getBoolean("stress.long");

    private StressMode() {
    }

    /** {@code quick} in CI, {@code long} in a night run. */
    public static int pick(int quick, int longRun) {
        return LONG ? longRun : quick;
    }
}
