package dev.consistentcut.annotation;

import dev.consistentcut.message.Barrier;

/**
 * A deliberate breach of the engine's layering, for ArchitectureBrokenTwinTest only: the annotation package reaching into the messages. It
 * lives in test sources, so the main-code import of ArchitectureTest never sees it.
 */
final class AnnotationArchTwin {

    private AnnotationArchTwin() {
    }

    static Object breach() {
        return Barrier.class;
    }
}
