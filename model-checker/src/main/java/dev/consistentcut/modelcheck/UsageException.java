package dev.consistentcut.modelcheck;

/** Bad usage: the runner exits 2 with the message. */
final class UsageException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Whether the help text follows the message (an unknown option). */
    final boolean withHelp;

    UsageException(String message) {
        this(message, false);
    }

    UsageException(String message, boolean withHelp) {
        super(message);
        this.withHelp = withHelp;
    }
}
