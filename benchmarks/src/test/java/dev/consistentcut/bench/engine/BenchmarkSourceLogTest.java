package dev.consistentcut.bench.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.consistentcut.bench.JobShape;
import org.junit.jupiter.api.Test;

class BenchmarkSourceLogTest {

    @Test
    void isEmptyUntilOpenedThenHoldsFlinksRecordsUntilClosed() {
        BenchmarkSourceLog log = new BenchmarkSourceLog(0);
        assertEquals(0, log.length(), "not opened yet: empty, so that building a runtime reads no record");
        log.open();
        assertEquals(Long.MAX_VALUE, log.length());
        for (long offset : new long[] {0, 1, 999, 123_456_789}) {
            assertEquals(JobShape.keyAt(offset), log.entryAt(offset).key());
            assertEquals(1, log.entryAt(offset).value());
        }
        log.close();
        assertEquals(Long.MAX_VALUE, log.length(), "the end is set by the source thread's next read, not by close");
        assertEquals(JobShape.keyAt(41), log.entryAt(41).key(), "the record being read still exists");
        assertEquals(42, log.length(), "and is the last one: the source task is exhausted after it");
        assertEquals(42, log.entryAt(41).key() >= 0 ? log.length() : -1, "a re-read does not move the end");
    }

    @Test
    void aNegativeOffsetIsRejected() {
        assertThrows(IndexOutOfBoundsException.class, () -> new BenchmarkSourceLog(0).entryAt(-1));
    }
}
