package dev.consistentcut.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import org.junit.jupiter.api.Test;

/** An I/O failure's cause in words: the operating system's reason, or words for what Java reports without one. */
class SinkIoExceptionTest {

    @Test
    void theCauseIsWordsNeverAJavaClassName() {
        assertEquals("no space left on device", SinkIoException.reason(new IOException("No space left on device")));
        assertEquals("not a directory", SinkIoException.reason(new FileSystemException("/a/b", null, "Not a directory")));
        assertEquals("permission denied", SinkIoException.reason(new AccessDeniedException("/a")));
        assertEquals("no such file or directory", SinkIoException.reason(new NoSuchFileException("/a")));
        assertEquals("I/O error", SinkIoException.reason(new FileSystemException("/a")));
        assertEquals("I/O error", SinkIoException.reason(new IOException()));
        assertEquals("EIO", SinkIoException.reason(new IOException("EIO")), "an acronym keeps its case");
    }
}
