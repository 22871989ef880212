package dev.consistentcut.picture;

import dev.consistentcut.message.Barrier;

/**
 * A deliberate breach of the tools' layering, for ToolsArchitectureBrokenTwinTest only: a picture
 * that knows the engine's messages instead of reading a trace. It lives in test sources, so the
 * main-code import of ToolsArchitectureTest never sees it.
 */
final class PictureArchTwin {

    private PictureArchTwin() {
    }

    static Object breach() {
        return Barrier.class;
    }
}
