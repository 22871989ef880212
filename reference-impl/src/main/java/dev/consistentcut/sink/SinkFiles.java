package dev.consistentcut.sink;

import dev.consistentcut.message.Record;
import dev.consistentcut.message.RecordId;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The names and the line format of a {@link TransactionalFileSink}'s files, shared by the sink and
 * the output verifier.
 *
 * <pre>
 * .txn-TASK-TXN.tmp             an open or pre-committed transaction (hidden: not output)
 * part-TASK-CHECKPOINT-TXN.txt  a committed transaction: pre-committed for CHECKPOINT, committed
 *                               by the rename of its temp file
 * line = SOURCE OFFSET KEY VALUE  (the record's id, its key and its value at the sink)
 * </pre>
 *
 * TASK is the task instance id with every character outside {@code [A-Za-z0-9._]} replaced by
 * {@code _} ({@code sink#0} becomes {@code sink_0}); TXN is a random 16-digit hex id, unique per
 * transaction, so a name is never reused, also across failures and processes.
 */
public final class SinkFiles {

    public static final String TEMP_PREFIX = ".txn-";
    public static final String TEMP_SUFFIX = ".tmp";
    public static final String PART_PREFIX = "part-";
    public static final String PART_SUFFIX = ".txt";

    private SinkFiles() {
    }

    /** The task id as it appears in file names. */
    public static String fileSafe(String task) {
        return task.replaceAll("[^A-Za-z0-9._]", "_");
    }

    static String tempName(String task, String txn) {
        return TEMP_PREFIX + fileSafe(task) + "-" + txn + TEMP_SUFFIX;
    }

    static String partName(String task, long checkpoint, String txn) {
        return String.format("%s%s-%06d-%s%s", PART_PREFIX, fileSafe(task), checkpoint, txn, PART_SUFFIX);
    }

    /** Whether {@code name} is a temp file of {@code task} (any transaction). */
    static boolean isTempOf(String name, String task) {
        return name.startsWith(TEMP_PREFIX + fileSafe(task) + "-") && name.endsWith(TEMP_SUFFIX);
    }

    /** Whether {@code name} is a committed file of {@code task}. */
    static boolean isPartOf(String name, String task) {
        return name.startsWith(PART_PREFIX + fileSafe(task) + "-") && name.endsWith(PART_SUFFIX);
    }

    public static boolean isPart(String name) {
        return name.startsWith(PART_PREFIX) && name.endsWith(PART_SUFFIX);
    }

    public static boolean isTemp(String name) {
        return name.startsWith(TEMP_PREFIX) && name.endsWith(TEMP_SUFFIX);
    }

    static byte[] line(Record r) {
        return (r.id().source() + " " + r.id().offset() + " " + r.key() + " " + r.value() + "\n")
                .getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The records of one committed file, in order.
     *
     * @throws IllegalArgumentException naming the file and the line for a malformed line
     */
    public static List<Record> parse(String file, byte[] content) {
        List<Record> out = new ArrayList<>();
        String text = new String(content, StandardCharsets.UTF_8);
        int lineNumber = 0;
        for (String line : text.split("\n", -1)) {
            lineNumber++;
            if (line.isEmpty()) {
                continue;
            }
            String[] f = line.split(" ");
            if (f.length != 4) {
                throw new IllegalArgumentException(file + " line " + lineNumber
                        + ": expected 'SOURCE OFFSET KEY VALUE', found '" + abbreviate(line) + "'");
            }
            try {
                out.add(new Record(new RecordId(f[0], Long.parseLong(f[1])), Long.parseLong(f[2]), Long.parseLong(f[3])));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(file + " line " + lineNumber + ": not a record: '"
                        + abbreviate(line) + "' (" + e.getMessage() + ")");
            }
        }
        if (!text.isEmpty() && !text.endsWith("\n")) {
            throw new IllegalArgumentException(file + " line " + lineNumber + ": truncated (no newline at the end)");
        }
        return out;
    }

    private static String abbreviate(String s) {
        return s.length() <= 80 ? s : s.substring(0, 77) + "...";
    }
}
