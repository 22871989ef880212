package dev.consistentcut;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * docs/architecture.md keeps up with the tools module, as {@link ArchitectureDocTest} checks it
 * keeps up with the engine: its section "Tools packages" names every package of this module's
 * main code and no other, and its section "Tools test seams" lists as many seams as this module's
 * main code marks. And no package is in both modules: a package split between them would give a
 * tool the engine's package-private code and the boundary would hold only by convention.
 */
class ToolsArchitectureDocTest {

    private static final Path MODULE = Path.of(System.getProperty("user.dir"));
    private static final Path SOURCES = MODULE.resolve("src/main/java/dev/consistentcut");
    private static final Path ENGINE_SOURCES = MODULE.resolve("../reference-impl/src/main/java/dev/consistentcut").normalize();

    @Test
    void theDocNamesEveryPackageOfTheToolsAndNoOther() throws IOException {
        ArchitectureDocTest.assertNamesEveryPackageAndNoOther("Tools packages", SOURCES);
    }

    @Test
    void theDocListsEveryTestSeamOfTheTools() throws IOException {
        ArchitectureDocTest.assertListsEveryTestSeam("Tools test seams", ToolsArchitectureTest.MAIN);
    }

    @Test
    void noPackageIsInBothModules() throws IOException {
        Set<String> shared = new TreeSet<>(ArchitectureDocTest.packagesUnder(SOURCES));
        shared.retainAll(ArchitectureDocTest.packagesUnder(ENGINE_SOURCES));
        assertEquals(Set.of(), shared, "packages with main code in both tools and reference-impl");
    }
}
