package dev.consistentcut.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * An input of 300,000 lines is read to its end, record by record, and kept as two columns of
 * longs: every offset gives its line's record, whatever the line endings and comments between.
 * The columns grow past their first size many times, so each growth is crossed. A bounded run: a
 * read that stalled would fail on the timeout, never on a measured duration.
 */
@Timeout(60)
class LargeFileSourceLogTest {

    private static final int LINES = 300_000;

    @TempDir
    Path dir;

    @Test
    void aLargeInputIsReadToItsEndWithEveryRecordAtItsOffset() throws IOException {
        Path file = dir.resolve("large.txt");
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            out.write("# key value\n");
            for (int i = 0; i < LINES; i++) {
                if (i % 50_000 == 0) {
                    out.write("# block " + i + "\n\n");
                }
                out.write(key(i) + "\t" + i + (i % 3 == 0 ? "\r\n" : "\n"));
            }
        }
        FileSourceLog log = FileSourceLog.open(file);
        assertEquals(LINES, log.length());
        for (int i = 0; i < LINES; i++) {
            SourceLog.Entry e = log.entryAt(i);
            if (e.key() != key(i) || e.value() != i) {
                assertEquals(new SourceLog.Entry(key(i), i), e, "offset " + i);
            }
        }
        IndexOutOfBoundsException past = assertThrows(IndexOutOfBoundsException.class, () -> log.entryAt(LINES));
        assertTrue(past.getMessage().contains("offset " + LINES + " outside the log [0, " + LINES + ")"), past.getMessage());
        assertThrows(IndexOutOfBoundsException.class, () -> log.entryAt(-1));
    }

    /** Keys of both signs, repeating: what a keyed job's input looks like. */
    private static long key(int i) {
        return i % 1009 - 504;
    }
}
