package dev.consistentcut;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Files of the engine's main code stay small: one over {@value #LIMIT} lines must say why on its
 * first line, as a comment starting with {@value #REASON}. A long file is sometimes right (one lock
 * guarding one state, one spec action table); a long file nobody decided on is how a class grows
 * into two.
 */
class FileSizeTest {

    static final int LIMIT = 500;
    static final String REASON = "// Longer than 500 lines:";

    private static final Path SOURCES = Path.of(System.getProperty("user.dir"), "src/main/java");

    /** The files among {@code files} over the limit whose first line gives no reason. */
    static List<String> unexplainedLongFiles(List<Path> files) throws IOException {
        List<String> offenders = new java.util.ArrayList<>();
        for (Path f : files) {
            List<String> lines = Files.readAllLines(f);
            if (lines.size() > LIMIT && !lines.get(0).startsWith(REASON)) {
                offenders.add(f + " (" + lines.size() + " lines)");
            }
        }
        return offenders;
    }

    @Test
    void everyLongFileOfMainCodeSaysWhyOnItsFirstLine() throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(SOURCES)) {
            files = walk.filter(f -> f.toString().endsWith(".java")).collect(Collectors.toList());
        }
        assertFalse(files.isEmpty(), "no Java file under " + SOURCES);
        assertEquals(List.of(), unexplainedLongFiles(files),
                "over " + LIMIT + " lines without a first line '" + REASON + " <why>': split the file or say why");
    }

    /** The rule's broken twin: a long file without a reason is reported, one with a reason is not. */
    @Test
    void aLongFileWithoutAReasonIsReportedAndOneWithAReasonIsNot() throws IOException {
        Path dir = Files.createTempDirectory("file-size");
        try {
            String body = "class X {}\n".repeat(LIMIT);
            Path bare = Files.writeString(dir.resolve("Bare.java"), "package p;\n" + body);
            Path said = Files.writeString(dir.resolve("Said.java"), REASON + " one lock, one state\n" + body);
            Path small = Files.writeString(dir.resolve("Small.java"), "package p;\n");
            assertEquals(List.of(bare + " (" + (LIMIT + 1) + " lines)"),
                    unexplainedLongFiles(List.of(bare, said, small)));
        } finally {
            try (Stream<Path> walk = Files.walk(dir)) {
                for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).collect(Collectors.toList())) {
                    Files.delete(p);
                }
            }
        }
    }
}
