package dev.consistentcut.check;

import dev.consistentcut.runtime.RunOptions;

/**
 * A deliberate breach of the engine's layering, for ArchitectureBrokenTwinTest only: a check that knows the runtime running the job. It
 * lives in test sources, so the main-code import of ArchitectureTest never sees it.
 */
final class CheckArchTwin {

    private CheckArchTwin() {
    }

    static Object breach() {
        return RunOptions.builder();
    }
}
