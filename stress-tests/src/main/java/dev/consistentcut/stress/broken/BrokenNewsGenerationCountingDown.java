package dev.consistentcut.stress.broken;

import dev.consistentcut.runtime.NewsGeneration;
import java.util.OptionalLong;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * DELIBERATELY BROKEN: {@link NewsGeneration} with a generation that counts down (0, -1, -2, ...),
 * as a mutant of it has it. The generations stay distinct, but -1 is also the mark of a question
 * never answered: after the first change, a task asking for the first time is told "nothing"
 * without asking, and a source would sleep through the first barrier. It exists only to show that
 * the lincheck {@code NewsGenerationTest} finds it. Never use it otherwise.
 */
public final class BrokenNewsGenerationCountingDown {

    private volatile long generation;
    private final Object lock = new Object();

    public void changed() {
        synchronized (lock) {
            generation = generation - 1; // THE BUG: reaches the "never answered" mark
        }
    }

    /** As {@link NewsGeneration#news}. */
    public OptionalLong news(long[] mark, BooleanSupplier mayCache, Supplier<OptionalLong> ask) {
        long g = generation;
        if (mark[0] == g) {
            return OptionalLong.empty();
        }
        OptionalLong r = ask.get();
        if (r.isEmpty() && mayCache.getAsBoolean()) {
            mark[0] = g;
        }
        return r;
    }
}
