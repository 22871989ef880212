package dev.consistentcut.channel;

import dev.consistentcut.runtime.RunOptions;

/**
 * A deliberate breach of the engine's layering, for ArchitectureBrokenTwinTest only: a core class that reaches up into the runtime. It
 * lives in test sources, so the main-code import of ArchitectureTest never sees it.
 */
final class ChannelArchTwin {

    private ChannelArchTwin() {
    }

    static Object breach() {
        return RunOptions.builder();
    }
}
