package dev.consistentcut.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.consistentcut.barrier.BarrierHandlers;
import dev.consistentcut.checkpoint.CompletedCheckpoint;
import dev.consistentcut.checkpoint.DirectoryCheckpointStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Recovery through the durable store: when the newest checkpoint file is damaged, the restore
 * uses the previous complete one, the damage is reported, and the run still ends exactly once.
 */
class DurableRecoveryTest {

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"corrupt", "truncated"})
    void aDamagedNewestCheckpointFallsBackToThePreviousOne(String damage) throws IOException {
        List<String> warnings = new ArrayList<>();
        SimulationRuntime sim = new SimulationRuntime(Topologies.demo(3), BarrierHandlers.unaligned(), RunOptions.builder()
                .seed(3)
                .triggerProbability(0.1)
                .maxCheckpoints(2)
                .store(() -> new DirectoryCheckpointStore(dir, 3, warnings::add))
                .build());
        while (sim.completedCheckpoints().size() < 2 && sim.step()) {
            // run until two checkpoints are on disk
        }
        List<CompletedCheckpoint> done = sim.completedCheckpoints();
        assertEquals(2, done.size());
        CompletedCheckpoint previous = done.get(0);
        Path newest = dir.resolve("chk-" + done.get(1).id() + ".ckpt");
        byte[] bytes = Files.readAllBytes(newest);
        if (damage.equals("corrupt")) {
            bytes[bytes.length / 2] ^= 0x5A;
        } else {
            bytes = Arrays.copyOf(bytes, bytes.length / 2);
        }
        Files.write(newest, bytes);

        sim.failAndRestore();

        previous.sourceOffsets().forEach((s, off) -> assertEquals(off, sim.sourceTask(s).offset(), s));
        previous.taskSnapshots().forEach((t, snap) -> assertEquals(snap.processed(), sim.operatorTask(t).processed(), t));
        assertTrue(warnings.stream().anyMatch(w -> w.contains(newest.getFileName().toString())), warnings.toString());
        RunResult r = sim.run();
        assertTrue(r.holds(), r.violations().toString());
    }
}
