package dev.consistentcut.checkpoint;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The format of a {@link DirectoryCheckpointStore}'s pointer {@code LATEST}: one line {@code
 * checkpoint <id> crc32c <8 hex digits of CRC32C("checkpoint <id>")>}. Stateless and thread-safe.
 */
final class PointerFile {

    private static final Pattern LINE = Pattern.compile("checkpoint (\\d{1,18}) crc32c ([0-9a-f]{8})\n");

    private PointerFile() {
    }

    /** The pointer to checkpoint {@code id}. */
    static byte[] bytes(long id) {
        String body = "checkpoint " + id;
        byte[] b = body.getBytes(StandardCharsets.US_ASCII);
        return String.format("%s crc32c %08x\n", body, CheckpointCodec.crc32c(b, 0, b.length))
                .getBytes(StandardCharsets.US_ASCII);
    }

    /** The id in pointer {@code bytes} read from {@code pointer}; a CorruptCheckpointException names the defect. */
    static long parse(byte[] bytes, Path pointer) throws CorruptCheckpointException {
        String text = new String(bytes, StandardCharsets.US_ASCII);
        Matcher m = LINE.matcher(text);
        if (!m.matches()) {
            throw new CorruptCheckpointException(pointer.toString(),
                    "corrupt pointer: expected one line 'checkpoint <id> crc32c <8 hex digits>', found "
                            + bytes.length + " bytes: " + printable(text));
        }
        long id = Long.parseLong(m.group(1));
        if (!Arrays.equals(bytes, bytes(id))) {
            throw new CorruptCheckpointException(pointer.toString(), "checksum mismatch in pointer: " + printable(text));
        }
        return id;
    }

    private static String printable(String s) {
        String shown = s.length() > 80 ? s.substring(0, 80) + "..." : s;
        return "'" + shown.replace("\n", "\\n").replaceAll("[^\\x20-\\x7e\\\\]", "?") + "'";
    }
}
