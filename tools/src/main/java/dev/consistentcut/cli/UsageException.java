package dev.consistentcut.cli;

/** A bad command line: the message names the argument that is wrong. Exit code 2. */
final class UsageException extends Exception {

    UsageException(String message) {
        super(message);
    }
}
