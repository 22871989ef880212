package dev.consistentcut.sink;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import java.util.List;
import java.util.Map;
import java.util.PrimitiveIterator;
import java.util.random.RandomGenerator;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * {@link TransactionalFileSink} draws each transaction's id from the source it is given, one
 * {@code nextLong()} per transaction, so a test can name the files a run will write.
 */
class TransactionIdsTest {

    @Test
    void eachTransactionTakesTheNextIdOfTheGivenSource() {
        PrimitiveIterator.OfLong ids = LongStream.of(0x2a, 0x2b).iterator();
        RandomGenerator scripted = ids::nextLong;
        MemorySinkDirectory dir = new MemorySinkDirectory();
        TransactionalFileSink s = new TransactionalFileSink(dir, 0, scripted);
        s.initializeState("sink#0", false);
        s.process(0, new Record(new RecordId("s#0", 0), 0, 1));
        s.preCommit(1);
        s.process(0, new Record(new RecordId("s#0", 1), 0, 1));
        s.preCommit(2);
        assertEquals(Map.of(1L, "000000000000002a", 2L, "000000000000002b"), s.pendingTransactions());
        assertEquals(List.of(SinkFiles.tempName("sink#0", "000000000000002a"), SinkFiles.tempName("sink#0", "000000000000002b")),
                dir.list().stream().sorted().toList());
    }
}
