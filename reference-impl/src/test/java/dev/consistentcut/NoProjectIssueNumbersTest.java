package dev.consistentcut;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Code, specs, tests, scripts and docs say why, never by an issue number: a reader has no tracker to
 * resolve the number, and the reason is what they need. The history lives in CHANGELOG.md, the
 * dated notebook/ and the commit messages. Flink's JIRA ids (FLINK-20654) and other projects'
 * issues written as {@code owner/repo#N} are fine.
 */
class NoProjectIssueNumbersTest {

    private static final Path ROOT = Path.of(System.getProperty("user.dir")).resolve("..").normalize();

    static final Pattern ISSUE = Pattern.compile("\\b[Ii]ssues? #?\\d+");
    private static final Set<String> TEXT = Set.of(".java", ".tla", ".cfg", ".md", ".sh", ".py", ".tsv",
            ".xml", ".properties", ".txt");
    private static final Set<String> SKIPPED_DIRS = Set.of(".git", "target", "notebook", "node_modules");

    /** A line break with the comment marker that continues the text on the next line. */
    private static final Pattern WRAP = Pattern.compile("[ \\t]*\\R[ \\t]*(?:\\*(?!/)|//|#|\\\\\\*|\\(\\*)?[ \\t]*");

    /**
     * The lines of {@code text} naming a project issue, as {@code name:line: text}; a reference
     * wrapped over two lines ("issue" at the end of one, the number at the start of the next,
     * behind the comment marker) counts, at its first line.
     */
    static List<String> mentions(String name, List<String> text) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < text.size(); i++) {
            String line = text.get(i);
            String joined = i + 1 < text.size()
                    ? line + WRAP.matcher("\n" + text.get(i + 1)).replaceFirst(" ") : line;
            java.util.regex.Matcher m = ISSUE.matcher(joined);
            if (m.find() && m.start() < line.length()) {
                out.add(name + ":" + (i + 1) + ": " + line.strip());
            }
        }
        return out;
    }

    @Test
    void nothingOutsideTheChangelogAndTheNotebookNamesAProjectIssue() throws IOException {
        List<Path> files;
        try (Stream<Path> walk = Files.walk(ROOT)) {
            files = walk.filter(Files::isRegularFile)
                    .filter(p -> {
                        for (Path part : ROOT.relativize(p)) {
                            if (SKIPPED_DIRS.contains(part.toString())) {
                                return false;
                            }
                        }
                        return true;
                    })
                    .filter(p -> TEXT.stream().anyMatch(ext -> p.toString().endsWith(ext)) || isScript(p))
                    .filter(p -> !p.getFileName().toString().equals("CHANGELOG.md"))
                    .collect(Collectors.toList());
        }
        assertTrue(files.size() > 100, "too few files found under " + ROOT + ": " + files.size());
        List<String> found = new ArrayList<>();
        for (Path f : files) {
            found.addAll(mentions(ROOT.relativize(f).toString(), Files.readAllLines(f, StandardCharsets.ISO_8859_1)));
        }
        assertEquals(List.of(), found, "say the reason instead of the issue number");
    }

    /** The check's broken twin: the forms of an issue reference are found; JIRA ids and other projects' are not. */
    @Test
    void everyFormOfAProjectIssueIsFoundAndOtherTrackersAreNot() {
        // The word is spliced in so that this file, the twin's fixture, holds no reference itself.
        String w = "issue";
        String cap = "Issue";
        List<String> text = List.of("the lifecycle (" + w + " 9)", cap + " 10: order", "see " + w + "s 11 and 16",
                w + " #12", "FLINK-20654", "tlaplus/tlaplus#206", "a tissue of lies", w + "d 3 times",
                "until " + w, "11's fix", " * fixed by " + w, " * 13, the", "an " + w, "nobody");
        assertEquals(List.of("d:1: the lifecycle (" + w + " 9)", "d:2: " + cap + " 10: order", "d:3: see " + w + "s 11 and 16",
                "d:4: " + w + " #12", "d:9: until " + w, "d:11: * fixed by " + w), mentions("d", text));
    }

    private static boolean isScript(Path p) {
        String name = p.getFileName().toString();
        return !name.contains(".") && p.getParent() != null && p.getParent().endsWith(".ci");
    }
}
