package dev.consistentcut.trace;

import dev.consistentcut.cli.Main;

/**
 * A deliberate breach of the tools' layering, for ToolsArchitectureBrokenTwinTest only: a trace
 * tool that knows the command line above it. It lives in test sources, so the main-code import of
 * ToolsArchitectureTest never sees it.
 */
final class TraceCliArchTwin {

    private TraceCliArchTwin() {
    }

    static Object breach() {
        return Main.class;
    }
}
