package dev.consistentcut;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import dev.consistentcut.cli.Main;
import java.net.URISyntaxException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The layers of the tools module's main code (docs/architecture.md), checked on its byte code with
 * ArchUnit, as {@link ArchitectureTest} checks the engine's: no package cycle, the command line on
 * top, the tools below it. The tools use the engine freely; that the engine never uses a tool
 * needs no rule, since reference-impl does not depend on this module and would not compile.
 */
class ToolsArchitectureTest {

    /** This module's main classes only (not the engine's, which the class path also holds). */
    static final JavaClasses MAIN = importMain();

    private static JavaClasses importMain() {
        return new ClassFileImporter().importPath(location(Main.class));
    }

    /** The class directory or jar {@code c} was loaded from. */
    static Path location(Class<?> c) {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void noCyclesBetweenPackages() {
        ArchitectureTest.freeOfPackageCycles("dev.consistentcut").check(MAIN);
    }

    /** The tools' layers of docs/architecture.md, above the engine's: each used only by the layers above it. */
    @Test
    void eachLayerIsUsedOnlyByTheLayersAboveIt() {
        eachLayerIsUsedOnlyByTheLayersAboveIt(MAIN);
    }

    static void eachLayerIsUsedOnlyByTheLayersAboveIt(JavaClasses classes) {
        layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("tools").definedBy("dev.consistentcut.picture..", "dev.consistentcut.trace..", "dev.consistentcut.replay..")
                .layer("command line").definedBy("dev.consistentcut.cli..")
                .whereLayer("command line").mayNotBeAccessedByAnyLayer()
                .whereLayer("tools").mayOnlyBeAccessedByLayers("command line")
                .because("a layer that reached up would make the layers below it depend on what they serve")
                .check(classes);
    }

    @Test
    void picturesReadOnlyTheTextNotations() {
        picturesReadOnlyTheTextNotations(MAIN);
    }

    static void picturesReadOnlyTheTextNotations(JavaClasses classes) {
        ArchitectureTest.onlyOnItselfAnd(classes, "dev.consistentcut.picture..",
                "a picture is drawn from a TLC trace or an engine trace, not from the engine",
                "dev.consistentcut.text..", "dev.consistentcut.annotation..");
    }

    @Test
    void onlyTheCommandLineDependsOnTheCommandLine() {
        onlyTheCommandLineDependsOnTheCommandLine(MAIN);
    }

    static void onlyTheCommandLineDependsOnTheCommandLine(JavaClasses classes) {
        noClasses().that().resideOutsideOfPackage("dev.consistentcut.cli..")
                .should().dependOnClassesThat().resideInAPackage("dev.consistentcut.cli..")
                .because("cli is the top layer: Main dispatches to the tools, no tool reaches back")
                .check(classes);
    }

    @Test
    void tracesAndPicturesDoNotDependOnTheReplay() {
        tracesAndPicturesDoNotDependOnTheReplay(MAIN);
    }

    static void tracesAndPicturesDoNotDependOnTheReplay(JavaClasses classes) {
        noClasses().that().resideInAnyPackage("dev.consistentcut.trace..", "dev.consistentcut.picture..")
                .should().dependOnClassesThat().resideInAPackage("dev.consistentcut.replay..")
                .because("the spec replay sits beside the trace tooling, neither needs the other")
                .check(classes);
    }
}
