package dev.consistentcut;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.api.Test;

/**
 * The broken twin of {@link ArchitectureTest}'s cycle rule: the same rule, applied to two test
 * packages that use each other ({@code archtwin.first} and {@code archtwin.second}), must fail and
 * name the cycle. Without it, a rule that matched no package would pass on main code for ever.
 * (The main-code import of ArchitectureTest leaves test classes out, so this cycle never reaches it.)
 */
class ArchitectureBrokenTwinTest {

    @Test
    void theCycleRuleCatchesTwoPackagesThatUseEachOther() {
        JavaClasses twin = new ClassFileImporter().importPackages("dev.consistentcut.archtwin");
        AssertionError caught = assertThrows(AssertionError.class,
                () -> ArchitectureTest.freeOfPackageCycles("dev.consistentcut.archtwin").check(twin));
        String message = caught.getMessage();
        assertTrue(message.contains("should be free of cycles") && message.contains("Cycle detected")
                && message.contains("Slice first") && message.contains("Slice second"), message);
    }
}
