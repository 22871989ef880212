package dev.consistentcut.source;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * A {@link SourceLog} stored in a text file, so that a log outlives the process that wrote it.
 *
 * <h2>Format</h2>
 * UTF-8 text, one record per line: {@code <key> <value>}, two signed decimal integers (Java
 * {@code long}) separated by spaces or tabs. Blank lines and lines whose first non-blank character
 * is {@code #} are ignored. The record on the {@code n}-th non-ignored line (counting from 0) has
 * offset {@code n}. A UTF-8 byte-order mark at the start of the file is skipped (editors on Windows
 * write one); a line may have at most {@value #MAX_LINE_CHARS} characters, and a NUL character
 * marks a binary file, which is refused. Example:
 * <pre>
 * # key value
 * 7 1
 * 3 1
 * </pre>
 *
 * <p>The whole file is read and validated when it is opened, so a malformed line stops the job
 * before it starts (with an error naming the file, the line number and what is wrong) instead of
 * halfway through; records are then served from memory. The file is read line by line and each
 * record kept as two {@code long}s (16 bytes, not an object per line), so an input of millions of
 * lines costs tens of megabytes. Reading any offset again (a rewind) gives the same record.
 * Immutable and thread-safe once opened (the arrays are not changed after {@link #open}).
 */
public final class FileSourceLog implements SourceLog {

    /** Most characters of one line: a record needs fewer than 50; the bound is for comments. */
    public static final int MAX_LINE_CHARS = 65_536;
    /** Characters of a line that a message quotes; the rest is counted, not echoed. */
    static final int QUOTED_CHARS = 80;
    private static final char BYTE_ORDER_MARK = '\uFEFF';

    private final Path file;
    private final long[] keys;
    private final long[] values;
    private final int length;

    private FileSourceLog(Path file, long[] keys, long[] values, int length) {
        this.file = file;
        this.keys = keys;
        this.values = values;
        this.length = length;
    }

    /**
     * Opens and validates {@code file}.
     *
     * @throws IllegalArgumentException naming the file and line if the file is missing or a line is malformed
     * @throws UncheckedIOException if the file cannot be read
     */
    public static FileSourceLog open(Path file) {
        Columns read = new Columns();
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            TextLines lines = new TextLines(in, MAX_LINE_CHARS, "source log " + file);
            String line;
            while ((line = lines.next()) != null) {
                int lineNumber = lines.lineNumber();
                if (lineNumber == 1 && !line.isEmpty() && line.charAt(0) == BYTE_ORDER_MARK) {
                    line = line.substring(1);
                }
                String text = line.strip();
                if (text.isEmpty() || text.startsWith("#")) {
                    continue;
                }
                read.add(file, lineNumber, parse(file, lineNumber, text));
            }
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("source log " + file + ": no such file", e);
        } catch (java.nio.charset.MalformedInputException e) {
            throw new IllegalArgumentException("source log " + file + ": not valid UTF-8 text", e);
        } catch (IOException e) {
            throw new UncheckedIOException("source log " + file + ": cannot read: " + e.getMessage(), e);
        }
        return new FileSourceLog(file, read.keys, read.values, read.length);
    }

    private static Entry parse(Path file, int lineNumber, String text) {
        String[] fields = text.split("[ \\t]+");
        if (fields.length != 2) {
            throw new IllegalArgumentException("source log " + file + " line " + lineNumber
                    + ": expected '<key> <value>' (two integers), found " + fields.length + " field(s): '" + quoted(text) + "'");
        }
        return new Entry(parseLong(file, lineNumber, "key", fields[0]), parseLong(file, lineNumber, "value", fields[1]));
    }

    private static long parseLong(Path file, int lineNumber, String what, String field) {
        try {
            return Long.parseLong(field);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("source log " + file + " line " + lineNumber
                    + ": " + what + " '" + quoted(field) + "' is not an integer", e);
        }
    }

    /** {@code text} as a message quotes it: whole if short, else its start and its length. */
    static String quoted(String text) {
        return text.length() <= QUOTED_CHARS ? text
                : text.substring(0, QUOTED_CHARS) + "... (" + text.length() + " characters)";
    }

    /** Writes {@code entries} to {@code file} in the format {@link #open} reads. */
    public static void write(Path file, List<Entry> entries) {
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            out.write("# key value\n");
            for (Entry e : entries) {
                out.write(e.key() + " " + e.value() + "\n");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("source log " + file + ": cannot write: " + e.getMessage(), e);
        }
    }

    public Path file() {
        return file;
    }

    @Override
    public long length() {
        return length;
    }

    @Override
    public Entry entryAt(long offset) {
        if (offset < 0 || offset >= length) {
            throw new IndexOutOfBoundsException("offset " + offset + " outside the log [0, " + length + ")");
        }
        return new Entry(keys[(int) offset], values[(int) offset]);
    }

    /** The records read so far, as two growing columns. Confined to {@link #open}. */
    private static final class Columns {
        /** Offsets are ints in memory: an array holds at most this many. */
        private static final int MAX_RECORDS = Integer.MAX_VALUE - 8;

        long[] keys = new long[1024];
        long[] values = new long[1024];
        int length;

        void add(Path file, int lineNumber, Entry e) {
            if (length == keys.length) {
                if (length == MAX_RECORDS) {
                    throw new IllegalArgumentException("source log " + file + " line " + lineNumber
                            + ": more than " + MAX_RECORDS + " records");
                }
                int grown = (int) Math.min(MAX_RECORDS, 2L * length);
                keys = Arrays.copyOf(keys, grown);
                values = Arrays.copyOf(values, grown);
            }
            keys[length] = e.key();
            values[length] = e.value();
            length++;
        }
    }
}
