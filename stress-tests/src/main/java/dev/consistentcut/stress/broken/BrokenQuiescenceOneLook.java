package dev.consistentcut.stress.broken;

import dev.consistentcut.runtime.Quiescence;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * DELIBERATELY BROKEN: the threaded runtime's end-of-run check without its second look at the step
 * counts ({@link Quiescence#reached} with the final comparison answered "true", as a mutant of it
 * has it). A step that began after the first look took a channel's last element, and the quiet
 * inspection saw every channel empty while the step still held that element: the run ends and the
 * step's result is left in a channel nobody takes from. It exists only to show that the lincheck
 * {@code EndOfRunStepCountsTest} finds that interleaving. Never use it otherwise.
 */
public final class BrokenQuiescenceOneLook {

    private BrokenQuiescenceOneLook() {
    }

    /** {@link Quiescence#reached} up to the quiet inspection, and nothing after it. */
    public static boolean reached(List<Quiescence.Steps> threads, BooleanSupplier quiet) {
        for (Quiescence.Steps t : threads) {
            long f = t.finished();
            if (t.started() != f) {
                return false;
            }
        }
        return quiet.getAsBoolean(); // THE BUG: no second look at the started counts
    }
}
