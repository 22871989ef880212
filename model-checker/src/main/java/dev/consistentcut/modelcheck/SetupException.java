package dev.consistentcut.modelcheck;

/** A setup or environment error (no java, no TLC, a missing file): the runner exits 3. */
final class SetupException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    SetupException(String message) {
        super(message);
    }
}
