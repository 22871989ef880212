package dev.consistentcut.checkpoint;

import static dev.consistentcut.checkpoint.SampleCheckpoints.sample;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class InMemoryCheckpointStoreTest {

    @Test
    void startsEmpty() {
        InMemoryCheckpointStore s = new InMemoryCheckpointStore(1);
        assertEquals(Optional.empty(), s.latest());
        assertEquals(List.of(), s.retainedIds());
    }

    @Test
    void keepsTheLastRetainAndTheHighestIsLatest() {
        InMemoryCheckpointStore s = new InMemoryCheckpointStore(2);
        for (long id = 1; id <= 4; id++) {
            s.store(sample(id));
            assertEquals(Optional.of(sample(id)), s.latest());
        }
        assertEquals(List.of(3L, 4L), s.retainedIds());
        s.store(sample(1)); // older than everything kept: evicted at once, latest unchanged
        assertEquals(List.of(3L, 4L), s.retainedIds());
        assertEquals(Optional.of(sample(4)), s.latest());
    }

    @Test
    void refusesAReusedIdAndBadRetention() {
        InMemoryCheckpointStore s = new InMemoryCheckpointStore(2);
        s.store(sample(1));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> s.store(sample(1)));
        assertTrue(e.getMessage().contains("checkpoint 1"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new InMemoryCheckpointStore(0));
    }
}
