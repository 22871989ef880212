package dev.consistentcut.trace;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Reads a trace file as its lines. A trace is UTF-8 text (NDJSON), so bytes that are not UTF-8
 * mean the file is not a trace: that is said with the file, the line and what a trace is, not
 * with the decoder's "Input length = 1". Stateless and thread-safe.
 */
final class TraceLines {

    private TraceLines() {
    }

    /**
     * The lines of {@code trace}.
     *
     * @throws IllegalArgumentException naming the file and line, if the file is not UTF-8 text
     * @throws UncheckedIOException if the file cannot be read
     */
    static List<String> read(Path trace) {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(trace);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read trace " + trace + ": " + e.getMessage(), e);
        }
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer text = CharBuffer.allocate(bytes.length);
        CoderResult r = decoder.decode(in, text, true);
        if (r.isError()) {
            throw new IllegalArgumentException(trace + ":" + lineAt(bytes, in.position()) + ": not a trace: bytes that"
                    + " are not UTF-8 text (a trace is NDJSON: a header line, then one JSON object per event)");
        }
        decoder.flush(text);
        return text.flip().toString().lines().toList();
    }

    /** The number of the line (the first is 1) that byte {@code offset} is on. */
    private static long lineAt(byte[] bytes, int offset) {
        long line = 1;
        for (int i = 0; i < offset; i++) {
            line += bytes[i] == '\n' ? 1 : 0;
        }
        return line;
    }
}
