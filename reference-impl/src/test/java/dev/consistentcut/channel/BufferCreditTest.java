package dev.consistentcut.channel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A buffer's credit, single-threaded and step by step: it is free exactly when the receiver has
 * read the buffer to its end, not when it starts reading it and not a record later. Freed early,
 * the channel holds more records than its capacity (the backpressure the spec's
 * {@code Capacity} bounds is gone); freed late, a sender waiting for the last buffer's credit
 * waits for good. Other tests reach this only through what an overtaking barrier overtakes or
 * through a parked sender (a hang, caught by a timeout).
 */
@Timeout(10)
class BufferCreditTest {

    private static Record rec(long offset) {
        return new Record(new RecordId("src", offset), offset, offset);
    }

    @Test
    void aBuffersCreditIsFreeExactlyWhenItsLastRecordIsTaken() {
        Channel c = new Channel("e", 4, 2); // 2 credits of 2 records
        for (long i = 0; i < 4; i++) {
            assertTrue(c.offerRecord(rec(i)));
        }
        assertFalse(c.hasRoom(), "two full buffers use both credits");

        assertEquals(rec(0), c.poll());
        assertFalse(c.hasRoom(), "half of the first buffer read: its credit is still taken");
        assertFalse(c.offerRecord(rec(4)));
        assertEquals(3, c.recordCount());

        assertEquals(rec(1), c.poll());
        assertTrue(c.hasRoom(), "the first buffer read to its end: its credit is free");
        assertTrue(c.offerRecord(rec(4)));
        assertTrue(c.offerRecord(rec(5)), "the new buffer's second record");
        assertFalse(c.hasRoom(), "both credits taken again");
        assertEquals(4, c.recordCount(), "never more than the capacity");

        assertEquals(rec(2), c.poll());
        assertEquals(rec(3), c.poll());
        assertTrue(c.hasRoom(), "the second buffer, now the last one queued ahead, read to its end");
        assertEquals(rec(4), c.poll());
        assertEquals(rec(5), c.poll());
        assertTrue(c.offerRecord(rec(6)) && c.offerRecord(rec(7)) && c.offerRecord(rec(8)) && c.offerRecord(rec(9)),
                "every credit free once the channel is read to its end");
        assertFalse(c.hasRoom());
    }
}
