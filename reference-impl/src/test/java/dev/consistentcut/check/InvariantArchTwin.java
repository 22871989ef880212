package dev.consistentcut.check;

import dev.consistentcut.task.RunEvent;

/**
 * A deliberate breach of the engine's layering, for ArchitectureBrokenTwinTest only: an invariant (a
 * check that observes nothing) that reads a task's run event. It lives in test sources, so the
 * main-code import of ArchitectureTest never sees it.
 */
final class InvariantArchTwin {

    private InvariantArchTwin() {
    }

    static boolean breach(RunEvent e) {
        return e instanceof RunEvent.EmitRecord;
    }
}
