package dev.consistentcut.text;

import dev.consistentcut.checkpoint.CheckpointStatus;

/**
 * A deliberate breach of the engine's layering, for ArchitectureBrokenTwinTest only: a notation that knows a checkpoint. It
 * lives in test sources, so the main-code import of ArchitectureTest never sees it.
 */
final class TextArchTwin {

    private TextArchTwin() {
    }

    static Object breach() {
        return CheckpointStatus.PENDING;
    }
}
