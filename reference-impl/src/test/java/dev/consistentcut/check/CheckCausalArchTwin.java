package dev.consistentcut.check;

import dev.consistentcut.causal.VectorClocks;
import java.util.List;

/**
 * A deliberate breach of the engine's layering, for ArchitectureBrokenTwinTest only: a check that
 * knows the vector clocks of a causal trace, a package of its own layer but not of the core. It
 * lives in test sources, so the main-code import of ArchitectureTest never sees it.
 */
final class CheckCausalArchTwin {

    private CheckCausalArchTwin() {
    }

    static Object breach() {
        return new VectorClocks(List.of("a"));
    }
}
