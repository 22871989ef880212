package dev.consistentcut.bench.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.consistentcut.bench.JobShape;
import org.junit.jupiter.api.Test;

class BenchmarkSourceLogTest {

    @Test
    void holdsTheSameRecordsAsFlinksGeneratorUntilClosed() {
        BenchmarkSourceLog log = new BenchmarkSourceLog(0);
        assertEquals(Long.MAX_VALUE, log.length());
        for (long offset : new long[] {0, 1, 999, 123_456_789}) {
            assertEquals(JobShape.keyAt(offset), log.entryAt(offset).key());
            assertEquals(1, log.entryAt(offset).value());
        }
        log.close();
        assertEquals(0, log.length(), "closed: every offset is past the end, so the source task is exhausted");
    }

    @Test
    void aNegativeOffsetIsRejected() {
        assertThrows(IndexOutOfBoundsException.class, () -> new BenchmarkSourceLog(0).entryAt(-1));
    }
}
