package dev.consistentcut.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SourceLogTest {

    @TempDir
    Path dir;

    @Test
    void inMemoryLogReadsRecordsByOffsetAgainAndAgain() {
        InMemorySourceLog log = InMemorySourceLog.ofKeys(7, 3);
        assertEquals(2, log.length());
        assertEquals(new Record(new RecordId("s#0", 1), 3, 1), log.read("s#0", 1));
        assertEquals(log.read("s#0", 0), log.read("s#0", 0), "a rewind reads the same record");
        IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class, () -> log.entryAt(2));
        assertEquals("offset 2 outside the log [0, 2)", e.getMessage());
    }

    @Test
    void randomKeysAreReproducibleFromTheSeed() {
        assertEquals(InMemorySourceLog.randomKeys(50, 4, 9).entries(), InMemorySourceLog.randomKeys(50, 4, 9).entries());
        assertTrue(InMemorySourceLog.randomKeys(50, 4, 9).entries().stream().allMatch(e -> e.key() >= 0 && e.key() < 4));
    }

    @Test
    void fileLogRoundTripsAndSkipsCommentsAndBlankLines() throws IOException {
        Path file = dir.resolve("s.log");
        Files.writeString(file, "# key value\n\n5 10\n  -3\t7  \n# trailing comment\n42 0\n");
        FileSourceLog log = FileSourceLog.open(file);
        assertEquals(3, log.length());
        assertEquals(new SourceLog.Entry(-3, 7), log.entryAt(1));
        assertEquals(new SourceLog.Entry(42, 0), log.entryAt(2));

        Path copy = dir.resolve("copy.log");
        List<SourceLog.Entry> entries = List.of(new SourceLog.Entry(1, 2), new SourceLog.Entry(3, 4));
        FileSourceLog.write(copy, entries);
        assertEquals(entries.get(1), FileSourceLog.open(copy).entryAt(1));
    }

    @Test
    void malformedLineIsReportedWithFileAndLine() throws IOException {
        Path file = dir.resolve("bad.log");
        Files.writeString(file, "1 1\n# ok\nabc 1\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FileSourceLog.open(file));
        assertEquals("source log " + file + " line 3: key 'abc' is not an integer", e.getMessage());
    }

    @Test
    void wrongFieldCountIsReportedWithFileAndLine() throws IOException {
        Path file = dir.resolve("bad.log");
        Files.writeString(file, "1 1\n2 2 2\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FileSourceLog.open(file));
        assertEquals("source log " + file + " line 2: expected '<key> <value>' (two integers), found 3 field(s): '2 2 2'",
                e.getMessage());
    }

    @Test
    void missingFileIsNamed() {
        Path file = dir.resolve("nope.log");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FileSourceLog.open(file));
        assertEquals("source log " + file + ": no such file", e.getMessage());
    }
}
