package dev.consistentcut.cli;

/**
 * An environment or I/O problem (a path that cannot be created, read or written, a directory in
 * use, a manifest this build cannot read): one line naming the path and the cause. Exit code 3.
 */
final class EnvironmentException extends RuntimeException {

    EnvironmentException(String message) {
        super(message);
    }

    EnvironmentException(String message, Throwable cause) {
        super(message, cause);
    }
}
