package dev.consistentcut.sink;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.Map;

/** An I/O failure of a {@link SinkDirectory}, naming the file and the operation. */
public final class SinkIoException extends UncheckedIOException {

    private static final long serialVersionUID = 1L;

    /** The failures Java reports without the operating system's reason, in its words. */
    private static final Map<Class<?>, String> WORDS = Map.of(
            NoSuchFileException.class, "no such file or directory",
            AccessDeniedException.class, "permission denied",
            FileAlreadyExistsException.class, "already exists",
            NotDirectoryException.class, "not a directory",
            DirectoryNotEmptyException.class, "directory not empty");

    public SinkIoException(String message, IOException cause) {
        super(message, cause);
    }

    /**
     * The cause of {@code e} in words, for a message that already names the path and what was
     * attempted: the operating system's reason ("no space left on device") where it gave one,
     * never a Java class name, which tells a user nothing.
     */
    public static String reason(IOException e) {
        if (e instanceof FileSystemException f) {
            return f.getReason() != null && !f.getReason().isBlank() ? sentenceCase(f.getReason())
                    : WORDS.getOrDefault(f.getClass(), "I/O error");
        }
        // A plain IOException's message is the operating system's reason ("No space left on device").
        return e.getMessage() == null || e.getMessage().isBlank() ? "I/O error" : sentenceCase(e.getMessage());
    }

    /** "No space left on device" as the end of a sentence: "no space left on device" (an acronym stays). */
    private static String sentenceCase(String reason) {
        String r = reason.strip();
        return r.length() > 1 && Character.isUpperCase(r.charAt(0)) && Character.isLowerCase(r.charAt(1))
                ? Character.toLowerCase(r.charAt(0)) + r.substring(1) : r;
    }
}
