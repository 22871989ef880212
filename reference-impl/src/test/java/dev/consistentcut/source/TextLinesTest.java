package dev.consistentcut.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link TextLines} splits a text where {@link BufferedReader#readLine} does, so that a source log
 * reads as it did, and refuses a line above its limit and a NUL character, naming the line.
 */
class TextLinesTest {

    @Test
    void splitsAsReadLineDoes() throws IOException {
        for (String text : List.of("", "a", "a\n", "a\r\nb", "a\rb\r", "a\n\nb\r\n\r\n", "\r\n\n", "x".repeat(20_000) + "\ny")) {
            assertEquals(readLine(text), lines(text, 30_000), text.length() > 40 ? "a long line" : text);
        }
    }

    @Test
    void refusesALineAboveTheLimitAndANul() {
        IllegalArgumentException longLine = assertThrows(IllegalArgumentException.class, () -> lines("ok\n12345", 4));
        assertEquals("t line 2: longer than the limit of 4 characters (binary data, or not a line-per-record text)",
                longLine.getMessage());
        assertEquals(List.of("1234"), assertDoesNotThrowLines("1234", 4));
        IllegalArgumentException nul = assertThrows(IllegalArgumentException.class, () -> lines("a\nb\0", 10));
        assertTrue(nul.getMessage().startsWith("t line 2: binary data (a NUL character)"), nul.getMessage());
    }

    private static List<String> assertDoesNotThrowLines(String text, int max) {
        try {
            return lines(text, max);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static List<String> lines(String text, int max) throws IOException {
        TextLines in = new TextLines(new StringReader(text), max, "t");
        List<String> out = new ArrayList<>();
        for (String l = in.next(); l != null; l = in.next()) {
            out.add(l);
            assertEquals(out.size(), in.lineNumber());
        }
        return out;
    }

    private static List<String> readLine(String text) throws IOException {
        BufferedReader in = new BufferedReader(new StringReader(text));
        List<String> out = new ArrayList<>();
        for (String l = in.readLine(); l != null; l = in.readLine()) {
            out.add(l);
        }
        return out;
    }
}
