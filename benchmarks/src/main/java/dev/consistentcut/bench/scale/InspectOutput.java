package dev.consistentcut.bench.scale;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.consistentcut.bench.Stats;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The bytes each retained checkpoint wrote, from {@code inspect DIR --json}: its private file
 * plus the shared files it uploaded itself. The store names a shared file after the checkpoint
 * that uploaded it ({@code shared-<id>-...}), so a shared file named after an older checkpoint is
 * a reference, not a write, and is not counted. Nor is a file the checkpoint took over from the
 * background materialiser ({@code ~m} in its name): the materialiser wrote its bytes off every
 * checkpoint's path, and the checkpoint only renamed it. Immutable.
 */
public record InspectOutput(List<Written> checkpoints) {

    /** One retained checkpoint: its id, its private file's bytes and the bytes of the shared files it uploaded. */
    public record Written(long id, long privateBytes, long uploadedBytes) {
        public long bytes() {
            return privateBytes + uploadedBytes;
        }
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    /** What marks a shared file the materialiser wrote and a checkpoint took over by a rename. */
    static final String MATERIALISED = "~m";

    public InspectOutput {
        checkpoints = checkpoints.stream().sorted(Comparator.comparingLong(Written::id)).toList();
    }

    /**
     * Reads inspect's JSON document.
     *
     * @throws IllegalArgumentException if it is not JSON, has no checkpoint, or a checkpoint is not valid
     */
    public static InspectOutput parse(String json) {
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException("inspect's output is not JSON", e);
        }
        JsonNode list = root == null ? null : root.get("checkpoints");
        if (list == null || !list.isArray() || list.isEmpty()) {
            throw new IllegalArgumentException("inspect reports no checkpoint");
        }
        List<Written> written = new ArrayList<>();
        for (JsonNode c : list) {
            long id = c.path("id").asLong();
            if (!c.path("valid").asBoolean(false)) {
                throw new IllegalArgumentException("inspect reports checkpoint " + id + " not valid: " + c.path("problem").asText());
            }
            String own = "shared-" + id + "-";
            long uploaded = 0;
            for (JsonNode f : c.path("sharedFiles")) {
                String name = f.path("file").asText();
                if (name.startsWith(own) && !name.contains(MATERIALISED)) {
                    uploaded += f.path("bytes").asLong();
                }
            }
            written.add(new Written(id, c.path("bytes").asLong(), uploaded));
        }
        return new InspectOutput(written);
    }

    /** The newest retained checkpoint. */
    public Written last() {
        return checkpoints.get(checkpoints.size() - 1);
    }

    /**
     * The median of what the retained checkpoints wrote: one checkpoint whose chains were
     * compacted writes their whole state, so the newest alone can be far from the usual.
     */
    public double medianBytes() {
        return Stats.median(checkpoints.stream().mapToDouble(Written::bytes).toArray());
    }
}
