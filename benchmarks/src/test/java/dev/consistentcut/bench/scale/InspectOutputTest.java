package dev.consistentcut.bench.scale;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.UncheckedIOException;
import org.junit.jupiter.api.Test;

class InspectOutputTest {

    @Test
    void aCheckpointWroteItsPrivateFileAndTheSharedFilesNamedAfterIt() {
        InspectOutput o = InspectOutput.parse(ScaleFixtures.INSPECT);
        assertEquals(2, o.checkpoints().size());
        InspectOutput.Written last = o.last();
        assertEquals(2, last.id());
        assertEquals(7435, last.privateBytes());
        assertEquals(124093 + 615352, last.uploadedBytes(), "checkpoint 1's shared file is a reference, not a write");
        assertEquals(7435 + 124093 + 615352, last.bytes());
        assertEquals(7851 + 89, o.checkpoints().get(0).bytes());
        assertEquals(7851 + 89, o.medianBytes(), "the lower median of two");
    }

    @Test
    void theNewestIsLastWhateverTheOrderInspectListsThemIn() {
        String swapped = """
                {"checkpoints":[{"id":7,"bytes":1,"valid":true,"sharedFiles":[]},
                                {"id":12,"bytes":2,"valid":true,"sharedFiles":[{"file":"shared-12-a.seg","bytes":3},
                                                                               {"file":"shared-1-a.seg","bytes":100}]},
                                {"id":9,"bytes":4,"valid":true,"sharedFiles":[]}]}
                """;
        InspectOutput o = InspectOutput.parse(swapped);
        assertEquals(12, o.last().id());
        assertEquals(5, o.last().bytes(), "shared-1-... is not checkpoint 12's (nor a prefix match of 12's)");
    }

    @Test
    void aFileTakenOverFromTheMaterialiserIsNotTheCheckpointsWrite() {
        // The materialiser wrote the merged state in the background; checkpoint 5 renamed it to
        // its own name and wrote only its new delta.
        InspectOutput o = InspectOutput.parse("""
                {"checkpoints":[{"id":5,"bytes":10,"valid":true,"sharedFiles":[
                    {"file":"shared-5-count%230~m2.seg","bytes":3000000},
                    {"file":"shared-5-count%230.seg","bytes":200}]}]}
                """);
        assertEquals(10 + 200, o.last().bytes());
    }

    @Test
    void noCheckpointAnInvalidOneOrNoJsonIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> InspectOutput.parse("{\"checkpoints\":[]}"));
        IllegalArgumentException invalid = assertThrows(IllegalArgumentException.class, () -> InspectOutput.parse(
                "{\"checkpoints\":[{\"id\":3,\"bytes\":1,\"valid\":false,\"problem\":\"crc mismatch\"}]}"));
        assertTrue(invalid.getMessage().contains("crc mismatch"), invalid.getMessage());
        assertThrows(UncheckedIOException.class, () -> InspectOutput.parse("checkpoint 3: valid"));
    }
}
