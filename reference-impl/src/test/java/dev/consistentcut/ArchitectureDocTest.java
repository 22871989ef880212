package dev.consistentcut;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.consistentcut.annotation.TestSeam;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/architecture.md keeps up with the code: its package table names every package of
 * reference-impl's main code and no other, and its "Test seams" section lists as many seams as
 * main code marks with {@link TestSeam}. The tools module's ToolsArchitectureDocTest checks its
 * own sections of the doc with the same helpers.
 */
class ArchitectureDocTest {

    private static final Path MODULE = Path.of(System.getProperty("user.dir"));
    private static final Path DOC = MODULE.resolve("../docs/architecture.md").normalize();
    private static final Path SOURCES = MODULE.resolve("src/main/java/dev/consistentcut");

    /** A row of the package table: its first cell is the package name, relative to dev.consistentcut. */
    private static final Pattern PACKAGE_ROW = Pattern.compile("^\\| `([a-z][a-z0-9_.]*)` \\|");
    /** An entry of the "Test seams" list. */
    private static final Pattern SEAM_ENTRY = Pattern.compile("^- `[^`]+`");

    @Test
    void theDocNamesEveryPackageOfMainCodeAndNoOther() throws IOException {
        assertNamesEveryPackageAndNoOther("Packages", SOURCES);
    }

    @Test
    void theDocListsEveryTestSeam() throws IOException {
        assertListsEveryTestSeam("Test seams", new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
                .importPackages("dev.consistentcut"));
    }

    /** The packages (relative to dev.consistentcut) of the Java files under {@code sources}. */
    static Set<String> packagesUnder(Path sources) throws IOException {
        Set<String> inCode = new TreeSet<>();
        try (Stream<Path> files = Files.walk(sources)) {
            files.filter(f -> f.toString().endsWith(".java"))
                    .map(f -> sources.relativize(f.getParent()).toString().replace(f.getFileSystem().getSeparator(), "."))
                    .filter(p -> !p.isEmpty())
                    .forEach(inCode::add);
        }
        assertFalse(inCode.isEmpty(), "no package found under " + sources);
        return inCode;
    }

    /** The package table of the doc's section {@code title} names every package under {@code sources} and no other. */
    static void assertNamesEveryPackageAndNoOther(String title, Path sources) throws IOException {
        Set<String> inCode = packagesUnder(sources);
        Set<String> inDoc = new TreeSet<>();
        for (String line : section(title)) {
            Matcher m = PACKAGE_ROW.matcher(line);
            if (m.find()) {
                inDoc.add(m.group(1));
            }
        }
        Set<String> missing = new TreeSet<>(inCode);
        missing.removeAll(inDoc);
        Set<String> gone = new TreeSet<>(inDoc);
        gone.removeAll(inCode);
        assertEquals(inCode, inDoc, DOC + ", section " + title + ": packages of main code it does not name: " + missing
                + "; packages it names that main code no longer has: " + gone);
    }

    /** The doc's section {@code title} lists as many seams as {@code main} marks with {@link TestSeam}. */
    static void assertListsEveryTestSeam(String title, JavaClasses main) throws IOException {
        List<String> marked = new ArrayList<>();
        for (JavaClass c : main) {
            if (c.isAnnotatedWith(TestSeam.class)) {
                marked.add(c.getName());
            }
            c.getConstructors().stream().filter(m -> m.isAnnotatedWith(TestSeam.class)).forEach(m -> marked.add(m.getFullName()));
            c.getMethods().stream().filter(m -> m.isAnnotatedWith(TestSeam.class)).forEach(m -> marked.add(m.getFullName()));
            c.getFields().stream().filter(f -> f.isAnnotatedWith(TestSeam.class)).forEach(f -> marked.add(f.getFullName()));
        }
        List<String> listed = section(title).stream().filter(l -> SEAM_ENTRY.matcher(l).find()).toList();
        assertEquals(marked.size(), listed.size(), DOC + ", section " + title + " lists " + listed.size()
                + " seam(s), main code marks " + marked.size() + " with @TestSeam: " + marked);
    }

    /** The lines of the section {@code ## title} of the doc, up to the next section. */
    private static List<String> section(String title) throws IOException {
        List<String> out = new ArrayList<>();
        boolean in = false;
        for (String line : Files.readAllLines(DOC)) {
            if (line.startsWith("## ")) {
                in = line.substring(3).trim().equals(title);
                continue;
            }
            if (in) {
                out.add(line);
            }
        }
        assertFalse(out.isEmpty(), DOC + " has no section '## " + title + "'");
        return out;
    }
}
