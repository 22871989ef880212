package dev.consistentcut.checkpoint;

import java.io.IOException;

/**
 * A stored checkpoint that cannot be decoded: truncated, bit-flipped, not a checkpoint at all, or
 * of an unsupported version. The message names where the bytes came from and what is wrong.
 */
public final class CorruptCheckpointException extends IOException {

    private final String where;
    private final String defect;

    public CorruptCheckpointException(String where, String defect) {
        super(where + ": " + defect);
        this.where = where;
        this.defect = defect;
    }

    public CorruptCheckpointException(String where, String defect, Throwable cause) {
        super(where + ": " + defect, cause);
        this.where = where;
        this.defect = defect;
    }

    /** Where the bytes came from, e.g. a file name. */
    public String where() {
        return where;
    }

    /** What is wrong, e.g. "checksum mismatch: ...". */
    public String defect() {
        return defect;
    }
}
