package dev.consistentcut.bench.flink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which of Flink's checkpoints belong to a measurement window, from an answer shaped like Flink 2.3.0's. */
class FlinkBenchmarkWindowTest {

    private static final String ANSWER = """
            {"counts": {"completed": 4, "failed": 1},
             "history": [
               {"id": 6, "status": "IN_PROGRESS", "trigger_timestamp": 1900, "latest_ack_timestamp": 1950},
               {"id": 5, "status": "COMPLETED", "trigger_timestamp": 1500, "latest_ack_timestamp": 2100},
               {"id": 4, "status": "FAILED", "trigger_timestamp": 1400, "latest_ack_timestamp": 1400},
               {"id": 3, "status": "COMPLETED", "trigger_timestamp": 1200, "latest_ack_timestamp": 1300},
               {"id": 2, "status": "COMPLETED", "trigger_timestamp": 1000, "latest_ack_timestamp": 1100},
               {"id": 1, "status": "COMPLETED", "trigger_timestamp": 900, "latest_ack_timestamp": 1050}
             ]}
            """;

    @Test
    void keepsCheckpointsTriggeredAndCompletedInsideTheWindowInIdOrder() throws Exception {
        FlinkBenchmark.Window w = FlinkBenchmark.window(new ObjectMapper().readTree(ANSWER), 1000, 2000);
        assertEquals(List.of(2L, 3L), w.completed().stream().map(c -> c.path("id").asLong()).toList(),
                "1 started before the window, 5 ended after it, 6 is still running");
        assertEquals(1, w.failed());
    }

    @Test
    void anAnswerWithoutHistoryIsAClearError() throws Exception {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> FlinkBenchmark.window(new ObjectMapper().readTree("{\"errors\": [\"not found\"]}"), 0, 1));
        assertEquals(true, e.getMessage().contains("no 'history' array"), e.getMessage());
    }
}
