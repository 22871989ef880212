package dev.consistentcut.trace;

import dev.consistentcut.replay.SpecReplay;

/**
 * A deliberate breach of the tools' layering, for ToolsArchitectureBrokenTwinTest only: a trace
 * tool that knows the spec replay beside it. It lives in test sources, so the main-code import of
 * ToolsArchitectureTest never sees it.
 */
final class TraceReplayArchTwin {

    private TraceReplayArchTwin() {
    }

    static Object breach() {
        return SpecReplay.class;
    }
}
