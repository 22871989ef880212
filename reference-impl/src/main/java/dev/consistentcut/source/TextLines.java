package dev.consistentcut.source;

import java.io.IOException;
import java.io.Reader;

/**
 * The lines of a text, split where {@link java.io.BufferedReader#readLine} splits them (at
 * {@code \n}, {@code \r} or {@code \r\n}), but never holding more than {@code maxChars} characters
 * of one line: a file of one endless line (a 64 MB line, {@code /dev/zero}) is refused at the limit
 * instead of filling the heap, and a NUL character, which no text file holds, is refused as binary
 * data at once. Not thread-safe: one reader, one thread.
 */
final class TextLines {

    private final Reader in;
    private final int maxChars;
    private final String name;
    private final char[] buffer = new char[8192];
    private int position;
    private int end;
    private boolean skipLineFeed;
    private int lineNumber;

    /** @param name the text's name in messages, e.g. "source log FILE" */
    TextLines(Reader in, int maxChars, String name) {
        this.in = in;
        this.maxChars = maxChars;
        this.name = name;
    }

    /** The number of the line {@link #next} returned last (the first is 1). */
    int lineNumber() {
        return lineNumber;
    }

    /**
     * The next line without its terminator, or null at the end of the text.
     *
     * @throws IllegalArgumentException naming the line, if it is longer than the limit or holds a NUL
     */
    String next() throws IOException {
        StringBuilder line = null;
        while (true) {
            if (position == end) {
                end = Math.max(0, in.read(buffer, 0, buffer.length));
                position = 0;
                if (end == 0) {
                    return line == null ? null : line.toString();
                }
            }
            char c = buffer[position++];
            if (skipLineFeed) {
                skipLineFeed = false;
                if (c == '\n') {
                    continue;
                }
            }
            if (line == null) {
                line = new StringBuilder();
                lineNumber++;
            }
            if (c == '\n' || c == '\r') {
                skipLineFeed = c == '\r';
                return line.toString();
            }
            if (c == '\0') {
                throw new IllegalArgumentException(name + " line " + lineNumber
                        + ": binary data (a NUL character), not text");
            }
            if (line.length() == maxChars) {
                throw new IllegalArgumentException(name + " line " + lineNumber + ": longer than the limit of "
                        + maxChars + " characters (binary data, or not a line-per-record text)");
            }
            line.append(c);
        }
    }
}
