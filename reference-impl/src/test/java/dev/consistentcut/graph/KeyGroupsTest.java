package dev.consistentcut.graph;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link KeyGroups} against values worked out by hand from Flink's formulas
 * ({@code KeyGroupRangeAssignment}, whose own test is {@code KeyGroupRangeAssignmentTest}): the
 * murmur hashes below were computed outside Java, step by step from {@code MathUtils.murmurHash}.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class KeyGroupsTest {

    @Test
    void murmurHashOfAnIntIsFlinks() {
        assertEquals(593689054, KeyGroups.murmurHash(0));
        assertEquals(68075478, KeyGroups.murmurHash(1));
        assertEquals(1085422463, KeyGroups.murmurHash(2));
        assertEquals(1134849565, KeyGroups.murmurHash(42));
    }

    @Test
    void aKeysGroupIsItsHashCodesMurmurHashModuloTheMaxParallelism() {
        assertEquals(593689054 % 128, KeyGroups.keyGroupOf(0, 128)); // 94
        assertEquals(94, KeyGroups.keyGroupOf(0, 128));
        assertEquals(86, KeyGroups.keyGroupOf(1, 128));
        assertEquals(29, KeyGroups.keyGroupOf(42, 128));
        assertEquals(62, KeyGroups.keyGroupOf(99, 128));
        // Long.hashCode(-1) = 0 and Long.hashCode(2^40) = 256: the key's Java hash code is hashed
        assertEquals(94, KeyGroups.keyGroupOf(-1, 128));
        assertEquals(1409940790 % 128, KeyGroups.keyGroupOf(1L << 40, 128));
        assertEquals(1134849565 % 10, KeyGroups.keyGroupOf(42, 10));
    }

    @Test
    void rangesAreContiguousAndSplitTheGroupsAsFlinkDoes() {
        // M = 128, p = 3: ceil(0) .. ceil(128/3) - 1 = 0..42, 43..85, 86..127
        assertEquals(new KeyGroups.Range(0, 42), KeyGroups.range(0, 3, 128));
        assertEquals(new KeyGroups.Range(43, 85), KeyGroups.range(1, 3, 128));
        assertEquals(new KeyGroups.Range(86, 127), KeyGroups.range(2, 3, 128));
        assertEquals(new KeyGroups.Range(0, 63), KeyGroups.range(0, 2, 128));
        assertEquals(new KeyGroups.Range(0, 127), KeyGroups.range(0, 1, 128));
        // M = 10, p = 4: 0..2, 3..4, 5..7, 8..9
        assertEquals(new KeyGroups.Range(0, 2), KeyGroups.range(0, 4, 10));
        assertEquals(new KeyGroups.Range(3, 4), KeyGroups.range(1, 4, 10));
        assertEquals(new KeyGroups.Range(5, 7), KeyGroups.range(2, 4, 10));
        assertEquals(new KeyGroups.Range(8, 9), KeyGroups.range(3, 4, 10));
        assertEquals("43-85", KeyGroups.range(1, 3, 128).toString());
    }

    @Test
    void theOwnerOfAGroupIsTheTaskWhoseRangeHoldsIt() {
        assertEquals(0, KeyGroups.owner(42, 3, 128)); // 42 * 3 / 128 = 126 / 128
        assertEquals(1, KeyGroups.owner(43, 3, 128)); // 129 / 128
        assertEquals(1, KeyGroups.owner(85, 3, 128)); // 255 / 128
        assertEquals(2, KeyGroups.owner(86, 3, 128)); // 258 / 128
        for (int m : new int[] {1, 7, 10, 128}) {
            for (int p = 1; p <= Math.min(m, 9); p++) {
                for (int g = 0; g < m; g++) {
                    int owner = KeyGroups.owner(g, p, m);
                    assertEquals(true, KeyGroups.range(owner, p, m).contains(g), g + " of " + m + " at " + p);
                }
            }
        }
        // key 0: group 94; at parallelism 3 task 94 * 3 / 128 = 2, at 2 task 1
        assertEquals(2, KeyGroups.ownerOfKey(0, 3, 128));
        assertEquals(1, KeyGroups.ownerOfKey(0, 2, 128));
        assertEquals(0, KeyGroups.ownerOfKey(42, 3, 128));
        assertEquals(2, Partitioning.hashTarget(0, 3, 128));
    }

    @Test
    void outOfRangeArgumentsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> KeyGroups.keyGroupOf(1, 0));
        assertThrows(IllegalArgumentException.class, () -> KeyGroups.keyGroupOf(1, (1 << 15) + 1));
        assertThrows(IllegalArgumentException.class, () -> KeyGroups.owner(128, 2, 128));
        assertThrows(IllegalArgumentException.class, () -> KeyGroups.range(0, 129, 128));
        assertThrows(IllegalArgumentException.class, () -> KeyGroups.range(3, 3, 128));
    }
}
