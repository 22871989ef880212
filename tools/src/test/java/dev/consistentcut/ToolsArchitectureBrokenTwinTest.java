package dev.consistentcut;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import dev.consistentcut.cli.Main;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The broken twins of {@link ToolsArchitectureTest}, as {@link ArchitectureBrokenTwinTest} has
 * them for the engine's rules: each rule, applied to this module's main code plus the
 * {@code *ArchTwin} classes of its test sources, must fail and name the twin that breaks it.
 * Without them, a rule that matched no class (a misspelt package) would pass for ever. The cycle
 * rule is the engine's own ({@link ArchitectureTest#freeOfPackageCycles}), whose twin is there.
 */
class ToolsArchitectureBrokenTwinTest {

    /** The tools' main classes and the {@code *ArchTwin} classes of their test sources, nothing else. */
    private static final JavaClasses WITH_TWINS = new ClassFileImporter()
            .withImportOption(location -> !location.contains("/test-classes/") || location.contains("ArchTwin"))
            .importPaths(ToolsArchitectureTest.location(Main.class),
                    ToolsArchitectureTest.location(ToolsArchitectureBrokenTwinTest.class));

    @Test
    void theLayerRuleCatchesATraceToolUsingTheCommandLine() {
        assertNames(failure(ToolsArchitectureTest::eachLayerIsUsedOnlyByTheLayersAboveIt), "trace.TraceCliArchTwin");
    }

    @Test
    void theCommandLineRuleCatchesATraceToolUsingTheCommandLine() {
        assertNames(failure(ToolsArchitectureTest::onlyTheCommandLineDependsOnTheCommandLine), "trace.TraceCliArchTwin");
    }

    @Test
    void thePictureRuleCatchesAPictureUsingTheEngine() {
        assertNames(failure(ToolsArchitectureTest::picturesReadOnlyTheTextNotations), "picture.PictureArchTwin");
    }

    @Test
    void theReplayRuleCatchesATraceToolUsingTheReplay() {
        assertNames(failure(ToolsArchitectureTest::tracesAndPicturesDoNotDependOnTheReplay), "trace.TraceReplayArchTwin");
    }

    private static String failure(Consumer<JavaClasses> rule) {
        return ArchitectureBrokenTwinTest.failure(rule, WITH_TWINS);
    }

    private static void assertNames(String message, String twin) {
        ArchitectureBrokenTwinTest.assertNames(message, twin);
    }
}
