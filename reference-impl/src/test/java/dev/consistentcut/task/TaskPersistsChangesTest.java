package dev.consistentcut.task;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.checkpoint.MaterialisedUploads;
import dev.consistentcut.checkpoint.TaskSnapshot;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The task writes its changes ({@link MaterialisedUploads#persist}) after its snapshot and before
 * its acknowledgement, as Flink's changelog writer persists a task's changes before the task
 * acknowledges (FLIP-158: ChangelogKeyedStateBackend#snapshot persists through the
 * StateChangelogWriter and acknowledges when it is done): the coordinator, when the
 * acknowledgement reaches it, finds them written and only takes them over.
 */
@Timeout(30)
class TaskPersistsChangesTest {

    /** One call of persist: its checkpoint, its snapshot, and how many acknowledgements the coordinator had by then. */
    private record Persisted(long checkpoint, TaskSnapshot snapshot, int acksBefore, int endedBefore) {
    }

    private final TwoSourceCountJob job = new TwoSourceCountJob(16);
    private final List<Persisted> persisted = new ArrayList<>();
    private final MaterialisedUploads writer = new MaterialisedUploads() {
        @Override
        public boolean upload(String task, List<Object> segments) {
            return false;
        }

        @Override
        public void discard(List<Object> segments) {
            // nothing uploaded
        }

        @Override
        public boolean persist(String task, long checkpoint, TaskSnapshot snapshot) {
            assertEquals("count#0", task);
            persisted.add(new Persisted(checkpoint, snapshot, job.gateway.acks.size(), job.gateway.ended.size()));
            return true;
        }
    };

    @Test
    void theChangesAreWrittenBeforeTheAcknowledgementAndTheFinalStateBeforeTheEnd() {
        SourceTask s1 = new SourceTask("s1#0", job.graph, job.channels, BarrierHandlers.aligned(), job.gateway, job.observer, true);
        SourceTask s2 = new SourceTask("s2#0", job.graph, job.channels, BarrierHandlers.aligned(), job.gateway, job.observer, true);
        OperatorTask count = new OperatorTask("count#0", job.graph, job.channels, BarrierHandlers.aligned(), job.gateway,
                RunObserver.NONE, true, Runnable::run, writer);
        job.gateway.nextBarrier.put("s1#0", 1L);
        job.gateway.nextBarrier.put("s2#0", 1L);
        s1.emitRecord();
        s1.injectBarrier(1);
        s2.injectBarrier(1);
        count.processRecord(0);
        count.receiveBarrier(0);
        assertEquals(List.of(), persisted, "nothing before the snapshot");
        count.receiveBarrier(1); // the last barrier: snapshot, write, acknowledge
        int sourceAcks = 2;
        assertEquals(1, persisted.size());
        assertEquals(1, persisted.get(0).checkpoint());
        assertEquals(sourceAcks, persisted.get(0).acksBefore(), "written before the task's acknowledgement");
        assertSame(persisted.get(0).snapshot(), job.gateway.acks.get(sourceAcks).snapshot(),
                "what was written is what was acknowledged");
        while (!s1.exhausted()) {
            s1.emitRecord();
        }
        while (!s2.exhausted()) {
            s2.emitRecord();
        }
        s1.sendEndOfPartition();
        s2.sendEndOfPartition();
        while (count.canProcessRecord(0)) {
            count.processRecord(0);
        }
        count.receiveEndOfPartition(0);
        while (count.canProcessRecord(1)) {
            count.processRecord(1);
        }
        count.receiveEndOfPartition(1);
        assertEquals(2, persisted.size());
        assertEquals(Long.MAX_VALUE, persisted.get(1).checkpoint(), "the final state: for every later checkpoint");
        assertEquals(job.gateway.ended.size() - 1, persisted.get(1).endedBefore(),
                "written before the task reported its end");
        assertSame(persisted.get(1).snapshot(), job.gateway.ended.get(job.gateway.ended.size() - 1).snapshot());
    }
}
