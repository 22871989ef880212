package dev.consistentcut.channel;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class RecordCodecTest {

    private static Record rec(String source, long offset, long key, long value) {
        return new Record(new RecordId(source, offset), key, value);
    }

    @Test
    void recordsComeBackEqualAndNew() {
        Record[] records = {
            rec("s1#0", 0, 7, 1), rec("s2#0", 0, -3, Long.MIN_VALUE), rec("s1#0", 1, Long.MAX_VALUE, -1),
            rec("quelle-ü#1", 1L << 40, 0, 42), rec("s2#0", 1, 7, 2), null, null,
        };
        byte[] bytes = RecordCodec.encode(records, 5);
        Record[] back = RecordCodec.decode(bytes, 5);
        assertArrayEquals(Arrays.copyOf(records, 5), back);
        for (int i = 0; i < 5; i++) {
            assertNotSame(records[i], back[i], "a deserialized record is a new object");
        }
    }

    @Test
    void eachSourceNameIsWrittenOncePerBuffer() {
        Record[] records = new Record[100];
        for (int i = 0; i < records.length; i++) {
            records[i] = rec(i % 2 == 0 ? "a-long-source-name#0" : "another-long-source-name#1", i, i, 1);
        }
        // 4 (names) + 2 x (4 + name) + 100 x (4 + 3 x 8): the names once, not per record.
        assertEquals(4 + (4 + 20) + (4 + 26) + 100 * 28, RecordCodec.encode(records, 100).length);
    }

    @Test
    void bytesThatAreNotTheEncodingAreRejectedNamingWhy() {
        byte[] bytes = RecordCodec.encode(new Record[] {rec("s", 1, 2, 3), rec("s", 2, 2, 3)}, 2);
        IllegalArgumentException tooFew = assertThrows(IllegalArgumentException.class, () -> RecordCodec.decode(bytes, 3));
        assertTrue(tooFew.getMessage().contains("not the encoding of 3 records"), tooFew.getMessage());
        IllegalArgumentException tooMany = assertThrows(IllegalArgumentException.class, () -> RecordCodec.decode(bytes, 1));
        assertTrue(tooMany.getMessage().contains("56 bytes of records after the names, not 28"), tooMany.getMessage());
        byte[] garbled = bytes.clone();
        garbled[0] = 0x7f; // a name count far past the end
        assertThrows(IllegalArgumentException.class, () -> RecordCodec.decode(garbled, 2));
        byte[] badName = bytes.clone();
        badName[4 + 4 + 1 + 3] = 1; // the first record's source-name index: 1 of one name
        IllegalArgumentException noSuchName = assertThrows(IllegalArgumentException.class, () -> RecordCodec.decode(badName, 2));
        assertTrue(noSuchName.getMessage().contains("not the encoding of 2 records"), noSuchName.getMessage());
    }
}
