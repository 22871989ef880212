package dev.consistentcut.sink;

import java.io.IOException;
import java.io.UncheckedIOException;

/** An I/O failure of a {@link SinkDirectory}, naming the file and the operation. */
public final class SinkIoException extends UncheckedIOException {

    private static final long serialVersionUID = 1L;

    public SinkIoException(String message, IOException cause) {
        super(message, cause);
    }
}
