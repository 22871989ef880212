package dev.consistentcut;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The handbook (README.md, docs/, spec/*.md) cites code by class and method, never by line number:
 * a doc that cites {@code Foo.java:120} either goes stale on the next edit or forbids the edit.
 * Dated measurements in notebook/ may cite what they like; they describe one commit.
 */
class DocsCiteNoCodeLinesTest {

    private static final Path ROOT = Path.of(System.getProperty("user.dir")).resolve("..").normalize();

    /** {@code Foo.java:12}, {@code Foo.java:12-30}, {@code Foo.java#L12}. */
    static final Pattern CODE_LINE = Pattern.compile("\\b[A-Z][A-Za-z0-9_]*\\.java(:\\d+|#L\\d+)");

    /** The lines of {@code text} citing a line of a Java file, as {@code name:line: text}. */
    static List<String> citations(String name, List<String> text) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < text.size(); i++) {
            if (CODE_LINE.matcher(text.get(i)).find()) {
                out.add(name + ":" + (i + 1) + ": " + text.get(i).strip());
            }
        }
        return out;
    }

    @Test
    void noDocCitesALineOfCode() throws IOException {
        List<Path> docs = new ArrayList<>();
        docs.add(ROOT.resolve("README.md"));
        for (String dir : List.of("docs", "spec")) {
            try (Stream<Path> walk = Files.walk(ROOT.resolve(dir))) {
                docs.addAll(walk.filter(p -> p.toString().endsWith(".md")).collect(Collectors.toList()));
            }
        }
        assertFalse(docs.size() < 2, "no docs found under " + ROOT);
        List<String> found = new ArrayList<>();
        for (Path doc : docs) {
            found.addAll(citations(ROOT.relativize(doc).toString(), Files.readAllLines(doc)));
        }
        assertEquals(List.of(), found, "docs cite lines of code; cite the class and method instead");
    }

    /** The check's broken twin: each form of a line citation is found; a class name alone is not. */
    @Test
    void everyFormOfALineCitationIsFoundAndAClassNameIsNot() {
        List<String> text = List.of("see ThreadedRuntime.java:520", "ThreadedRuntime.java:157-188 copies",
                "Channel.java#L40", "the class ThreadedRuntime.java and ThreadedRuntime.trigger()",
                "spec line 85, col 17");
        assertEquals(List.of("d:1: see ThreadedRuntime.java:520", "d:2: ThreadedRuntime.java:157-188 copies",
                "d:3: Channel.java#L40"), citations("d", text));
    }
}
