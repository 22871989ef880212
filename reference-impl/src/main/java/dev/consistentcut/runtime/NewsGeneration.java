package dev.consistentcut.runtime;

import dev.consistentcut.annotation.TestSeam;
import java.util.OptionalLong;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The coordinator's generation, and the task threads' cached "nothing for you" answers keyed by it
 * ({@link DriverGateway}): asking the coordinator takes its lock, and one lock per record and task
 * was the hot path's bottleneck. {@link #changed()} is called right after every change of the
 * coordinator's state that can give a task a barrier to inject or news to take, before the tasks
 * are woken; a task told "nothing" at a generation is told "nothing" again, without asking, while
 * the generation has not moved.
 *
 * <p>A mark is one task's memory of one question: the generation of its last "nothing", or
 * {@code -1} before any. The generation starts at 0 and only grows, so it never equals that mark.
 *
 * <p>Threading: {@link #changed()} by any thread; {@link #news} by the one thread that owns the
 * mark it is given. Public for the stress tests' lincheck harness, which model-checks a question
 * against a change; the engine uses it from {@link DriverGateway} only.
 */
@TestSeam
public final class NewsGeneration {

    private volatile long generation;
    private final Object lock = new Object();

    /** A new mark: never answered. */
    public static long[] neverAnswered() {
        return new long[] {-1};
    }

    /** The coordinator's state changed; any thread. */
    public void changed() {
        synchronized (lock) {
            generation = generation + 1;
        }
    }

    /**
     * {@code ask}, unless {@code mark}'s owner was told "nothing" by it since the generation last
     * moved. The generation is read before asking: a change during the question moves it past what
     * the mark keeps, so the next question asks again. {@code mark} null: always ask, keep nothing.
     *
     * @param mayCache whether this thread may keep an empty answer (asked only when there is one)
     */
    public OptionalLong news(long[] mark, BooleanSupplier mayCache, Supplier<OptionalLong> ask) {
        long g = generation;
        if (mark != null && mark[0] == g) {
            return OptionalLong.empty();
        }
        OptionalLong r = ask.get();
        if (mark != null && r.isEmpty() && mayCache.getAsBoolean()) {
            mark[0] = g;
        }
        return r;
    }
}
