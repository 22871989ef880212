package dev.consistentcut.checkpoint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The chain of segments a task keeps per state (the spec's local files): its bookkeeping decides
 * when a compaction is due and which segments a later snapshot added, so the incremental cut check
 * and restore depend on it being exact.
 */
class ChangelogTest {

    @Test
    void aChainCountsItsSegmentsAndKeepsBaseAndChangeBytesApart() {
        Changelog<String> c = Changelog.base("base", 100).writeState("a", 10).writeState("b", 20);
        assertEquals(3, c.length());
        assertEquals(100, c.baseBytes(), "the base's bytes stay those of the base");
        assertEquals(30, c.changeBytes(), "the change segments' bytes add up");
        assertEquals(List.of("base", "a", "b"), c.segments());
        assertEquals("b", c.latest());
    }

    @Test
    void aCompactionIsDueExactlyWhenTheChainWouldExceedItsSegmentLimit() {
        Changelog<String> two = Changelog.base("base", 1_000).writeState("a", 1);
        assertFalse(two.compactionDue(1, 3), "a third segment is within a limit of three");
        assertTrue(two.compactionDue(1, 2), "a third segment is over a limit of two");
    }

    @Test
    void aCompactionIsDueExactlyWhenTheChangesWouldOutweighTheBase() {
        Changelog<String> c = Changelog.base("base", 100).writeState("a", 30);
        assertFalse(c.compactionDue(70, 100), "changes of exactly the base's bytes do not outweigh it");
        assertTrue(c.compactionDue(71, 100), "one byte more does");
    }

    @Test
    void aCompactionStartsAChainOfOneSegment() {
        Changelog<String> c = Changelog.compactState("whole", 50);
        assertEquals(1, c.length());
        assertEquals(50, c.baseBytes());
        assertEquals(0, c.changeBytes());
    }

    @Test
    void theSegmentsSinceAnEarlierChainAreTheOnesWrittenAfterItOldestFirst() {
        Changelog<String> earlier = Changelog.base("base", 100).writeState("a", 1);
        Changelog<String> later = earlier.writeState("b", 1).writeState("c", 1);
        assertEquals(List.of("b", "c"), later.segmentsSince(earlier));
        assertEquals(List.of(), later.segmentsSince(later));
        assertNull(earlier.segmentsSince(later), "a shorter chain does not extend a longer one");
        assertNull(later.segmentsSince(null));
        Changelog<String> otherBranch = Changelog.base("base", 100).writeState("a", 1);
        assertNull(later.segmentsSince(otherBranch), "an equal-looking chain that is not a prefix is not extended");
    }

    @Test
    void newestFirstWalksTheChainBackwards() {
        Changelog<String> c = Changelog.base("base", 1).writeState("a", 1).writeState("b", 1);
        StringBuilder seen = new StringBuilder();
        c.newestFirst().forEach(seen::append);
        assertEquals("babase", seen.toString());
    }

    @Test
    void aRebaseReplacesThePrefixUpToThePointAndKeepsTheLaterSegmentsTheSameObjects() {
        String a = new String("a");
        String b = new String("b");
        String c = new String("c");
        Changelog<String> point = Changelog.base("base", 100).writeState(a, 10);
        Changelog<String> now = point.writeState(b, 20).writeState(c, 30);
        Changelog<String> rebased = now.compactState(point, "base+a", 110);
        assertEquals(List.of("base+a", "b", "c"), rebased.segments(), "the segments after the point follow the merged one");
        assertSame(b, rebased.segments().get(1), "a later segment is the same object: a store does not write it again");
        assertSame(c, rebased.latest());
        assertEquals(110, rebased.baseBytes());
        assertEquals(50, rebased.changeBytes(), "the later segments keep their bytes");
        assertEquals(List.of("base+a"), point.compactState(point, "base+a", 110).segments(), "at the point itself: one segment");
        assertNull(point.compactState(now, "x", 1), "a chain shorter than the point does not extend it");
        assertNull(now.compactState(Changelog.base("base", 100).writeState("a", 10), "x", 1),
                "an equal-looking chain that is not a prefix is not extended");
    }

    @Test
    void theSegmentsSinceAnEarlierChainSurviveARebaseOnItOrOnAPrefixOfIt() {
        Changelog<String> point = Changelog.base("base", 100).writeState("a", 10);
        Changelog<String> afterPoint = point.writeState("b", 20);
        Changelog<String> now = afterPoint.writeState("c", 30);
        Changelog<String> rebased = now.compactState(point, "base+a", 110);
        assertEquals(List.of("b", "c"), rebased.segmentsSince(point), "a rebase on the earlier chain itself");
        assertEquals(List.of("c"), rebased.segmentsSince(afterPoint), "a rebase on a prefix of the earlier chain");
        assertEquals(List.of(), rebased.segmentsSince(now), "the same state, rebased");
        assertEquals(List.of("d"), rebased.writeState("d", 1).segmentsSince(rebased));
        assertNull(rebased.segmentsSince(Changelog.base("base", 100)),
                "a rebase past the earlier chain: what changed since it is merged away");
        assertNull(Changelog.compactState("whole", 160).segmentsSince(now), "a whole compaction starts anew");
    }
}
