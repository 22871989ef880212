package dev.consistentcut;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The broken twins of {@link ArchitectureTest}: each rule, applied to main code plus one test class
 * that breaks it, must fail and name that class. Without them, a rule that matched no class (a
 * misspelt package, a layer defined by nothing) would pass on main code for ever. The breaching
 * classes are named {@code *ArchTwin} and live in test sources, so ArchitectureTest's own import of
 * main code never sees them.
 */
class ArchitectureBrokenTwinTest {

    /** Main code and the {@code *ArchTwin} classes of the test sources, nothing else of the tests. */
    private static final JavaClasses WITH_TWINS = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
            .withImportOption(location -> !location.contains("/test-classes/") || location.contains("ArchTwin"))
            .importPackages("dev.consistentcut");

    @Test
    void theCycleRuleCatchesTwoPackagesThatUseEachOther() {
        JavaClasses twin = new ClassFileImporter().importPackages("dev.consistentcut.archtwin");
        String message = failure(classes -> ArchitectureTest.freeOfPackageCycles("dev.consistentcut.archtwin").check(classes), twin);
        assertTrue(message.contains("should be free of cycles") && message.contains("Cycle detected")
                && message.contains("Slice first") && message.contains("Slice second"), message);
    }

    @Test
    void theLayerRuleCatchesACoreClassUsingTheRuntime() {
        assertNames(failure(ArchitectureTest::eachLayerIsUsedOnlyByTheLayersAboveIt, WITH_TWINS), "channel.ChannelArchTwin");
    }

    @Test
    void theCoreRuleCatchesACoreClassUsingTheRuntime() {
        assertNames(failure(ArchitectureTest::theCoreDependsOnNoRuntimeCheckOrTextNotation, WITH_TWINS),
                "channel.ChannelArchTwin");
    }

    @Test
    void theMessagesRuleCatchesAMessageUsingTheChannel() {
        assertNames(failure(ArchitectureTest::messagesDependOnNothingOfTheEngine, WITH_TWINS), "message.MessageArchTwin");
    }

    @Test
    void theTextRuleCatchesANotationUsingACheckpoint() {
        assertNames(failure(ArchitectureTest::textNotationsDependOnNothingOfTheEngine, WITH_TWINS), "text.TextArchTwin");
    }

    @Test
    void theAnnotationRuleCatchesTheAnnotationPackageUsingAMessage() {
        assertNames(failure(ArchitectureTest::theTestSeamAnnotationDependsOnNothingOfTheEngine, WITH_TWINS),
                "annotation.AnnotationArchTwin");
    }

    @Test
    void theChecksRuleCatchesACheckUsingTheRuntime() {
        assertNames(failure(ArchitectureTest::theChecksDependOnNoRuntime, WITH_TWINS), "check.CheckArchTwin");
    }

    @Test
    void theInvariantsRuleCatchesAnInvariantReadingATaskEvent() {
        assertNames(failure(ArchitectureTest::theInvariantsReadNoTaskEvents, WITH_TWINS), "check.InvariantArchTwin");
    }

    @Test
    void theChecksCoreOnlyRuleCatchesACheckUsingTheVectorClocks() {
        assertNames(failure(ArchitectureTest::theChecksDependOnTheCoreOnly, WITH_TWINS), "check.CheckCausalArchTwin");
    }

    /** The message of the failure {@code rule} must raise on {@code classes} (the tools' twins use it too). */
    static String failure(Consumer<JavaClasses> rule, JavaClasses classes) {
        return assertThrows(AssertionError.class, () -> rule.accept(classes)).getMessage();
    }

    /** {@code message} names {@code twin}, a class under {@code dev.consistentcut}. */
    static void assertNames(String message, String twin) {
        assertTrue(message.contains("dev.consistentcut." + twin), "the failure should name " + twin + ": " + message);
    }
}
