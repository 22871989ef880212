package dev.consistentcut.checkpoint;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.message.Record;
import dev.consistentcut.operator.ChangelogState;
import dev.consistentcut.operator.Operator;
import java.io.ByteArrayOutputStream;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A stored changelog names its merge by the operator's class, and a reading process finds the
 * merge again by that name: made once from the class, then the same merge for every later lookup.
 */
@Timeout(10)
class OperatorStateMergeTest {

    /** A changelog operator no other test names, so its first lookup here makes its merge. */
    public static final class Concatenating implements Operator, ChangelogState {
        public Concatenating() {
        }

        @Override
        public Record process(int input, Record record) {
            return record;
        }

        @Override
        public byte[] snapshotState() {
            return new byte[0];
        }

        @Override
        public void restoreState(byte[] state) {
        }

        @Override
        public byte[] snapshotChanges() {
            return new byte[0];
        }

        @Override
        public long stateSize() {
            return 0;
        }

        @Override
        public byte[] mergeState(List<byte[]> segments) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            segments.forEach(out::writeBytes);
            return out.toByteArray();
        }
    }

    @Test
    void aMergeIsFoundByItsOperatorsClassNameAndMadeOnce() {
        String name = new OperatorStateMerge(new Concatenating()).name();
        assertEquals(Concatenating.class.getName(), name);
        StateMerge first = OperatorStateMerge.named(name);
        assertArrayEquals(new byte[] {1, 2, 3}, first.merge(List.of(new byte[] {1}, new byte[] {2, 3})));
        assertSame(first, OperatorStateMerge.named(name), "one merge per class");
    }

    @Test
    void aNameOfNoChangelogOperatorIsRefusedNamingIt() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> OperatorStateMerge.named(String.class.getName()));
        assertTrue(e.getMessage().contains("java.lang.String is no changelog operator class"), e.getMessage());
    }

    @Test
    void aStoreThatKeepsNoFilesTakesNoMaterialisedUploads() {
        assertSame(MaterialisedUploads.NONE, new InMemoryCheckpointStore(1).materialisedUploads());
    }
}
