package dev.consistentcut.task.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.consistentcut.barrier.BarrierHandlers;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The scenarios of Flink's {@code AlternatingCheckpointsTest} that do not depend on alignment
 * timeouts, announcements or savepoints mixed with checkpoints in one job (those belong to the
 * alternating-mode issue; docs/flink-scenarios.md lists them). Flink's savepoints are aligned and
 * its checkpoints there unaligned; here each is the job's mode.
 */
@Timeout(10)
class AlternatingScenariosTest {

    // Flink: testCheckpointHandling -- unaligned: the first barrier snapshots, the second completes.
    @Test
    void unalignedSnapshotsOnTheFirstBarrier() {
        OneTask t = new OneTask(2, BarrierHandlers.unaligned()).run("b123@0");
        assertEquals(List.of(123L), t.snapshots());
        t.run("b123@1");
        assertEquals(List.of(123L), t.acknowledged());
    }

    // Flink: testSavepointHandling -- aligned: nothing before the last barrier, then every input resumes.
    @Test
    void alignedSnapshotsOnTheLastBarrier() {
        OneTask t = new OneTask(2, BarrierHandlers.aligned()).run("b123@0");
        assertEquals(List.of(), t.snapshots());
        t.run("b123@1");
        assertEquals(List.of(123L), t.snapshots());
        assertEquals(Set.of(), t.blocked());
    }

    // Flink: testAlternation -- 123 checkpoints in a row over 123 inputs, each completed in order.
    @Test
    void manyCheckpointsOverManyInputsInOrder() {
        OneTask t = new OneTask(123, BarrierHandlers.aligned());
        List<Long> expected = new ArrayList<>();
        for (long c = 1; c <= 123; c++) {
            StringBuilder s = new StringBuilder();
            for (int i = 0; i < 123; i++) {
                s.append('b').append(c).append('@').append(i).append(' ');
            }
            t.run(s.toString());
            expected.add(c);
        }
        assertEquals(expected, t.acknowledged());
    }

    // Flink: testHasInflightDataBeforeProcessBarrier -- one of two barriers: not complete.
    @Test
    void oneOfTwoBarriersIsNotComplete() {
        OneTask t = new OneTask(2, BarrierHandlers.unaligned()).run("b1@0");
        assertEquals(List.of(), t.acknowledged());
        assertEquals(1, t.task.handlerState().checkpointId());
    }

    // Flink: testOutOfOrderBarrier -- an older barrier while handling a newer checkpoint is
    // dropped and blocks nothing.
    @Test
    void olderBarrierWhileHandlingANewerOneIsDropped() {
        OneTask t = new OneTask(2, BarrierHandlers.aligned()).run("b10@0 b5@1");
        assertEquals(10, t.task.handlerState().latestCheckpointId());
        assertFalse(t.task.isBlocked(1));
    }
}
