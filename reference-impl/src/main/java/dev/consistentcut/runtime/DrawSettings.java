package dev.consistentcut.runtime;

import java.util.Objects;
import java.util.function.LongFunction;
import java.util.random.RandomGenerator;

/**
 * Where a run's random draws come from, for either runtime. Immutable; built by
 * {@link RunOptions#builder()}, whose setters document the defaults.
 *
 * @param seed seeds the draws; in the simulation the whole run follows from it
 * @param draws makes the run's source of random draws from {@link #seed()} (see the builder);
 *     every random choice of a runtime is drawn from the one source {@link #newDraws()} makes
 */
public record DrawSettings(long seed, LongFunction<RandomGenerator> draws) {

    public DrawSettings {
        Objects.requireNonNull(draws, "draws");
    }

    /**
     * A new source of the run's random draws, seeded with {@link #seed()}: the simulation chooses
     * its steps and draws its failures, aborts and declines from it; the threaded runtime draws
     * its declines from it (on the task threads, so the source must be thread-safe there).
     */
    public RandomGenerator newDraws() {
        return draws.apply(seed);
    }
}
