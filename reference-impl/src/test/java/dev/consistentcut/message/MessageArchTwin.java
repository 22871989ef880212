package dev.consistentcut.message;

import dev.consistentcut.channel.Channel;

/**
 * A deliberate breach of the engine's layering, for ArchitectureBrokenTwinTest only: a message that knows the channel carrying it. It
 * lives in test sources, so the main-code import of ArchitectureTest never sees it.
 */
final class MessageArchTwin {

    private MessageArchTwin() {
    }

    static Object breach() {
        return Channel.class;
    }
}
