package dev.consistentcut;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import dev.consistentcut.check.CutInvariants;
import dev.consistentcut.check.Violation;
import dev.consistentcut.task.RunObserver;
import org.junit.jupiter.api.Test;

/**
 * The layers of reference-impl's main code, the engine (docs/architecture.md), checked on its byte
 * code with ArchUnit: no package depends, even through others, on itself, and each layer depends
 * only on the layers below it. The tools (command line, traces, replay, pictures) are another
 * module, which this one does not depend on, so no rule here needs to keep the engine off them;
 * their own rules are the tools module's ToolsArchitectureTest, which uses the helpers here. Plain
 * JUnit tests (not ArchUnit's own engine), so the per-test timeout of junit-platform.properties
 * covers them too.
 */
class ArchitectureTest {

    private static final String ENGINE = "dev.consistentcut..";

    /** The engine's core: what a job is and how its tasks, channels and checkpoints work. */
    private static final String[] CORE = {
        "dev.consistentcut.message..", "dev.consistentcut.channel..", "dev.consistentcut.barrier..",
        "dev.consistentcut.graph..", "dev.consistentcut.operator..", "dev.consistentcut.source..",
        "dev.consistentcut.sink..", "dev.consistentcut.checkpoint..", "dev.consistentcut.task..",
    };

    /** The main classes only: test twins and harnesses may reach anywhere. */
    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
            .importPackages("dev.consistentcut");

    @Test
    void noCyclesBetweenPackages() {
        freeOfPackageCycles("dev.consistentcut").check(MAIN);
    }

    /** The packages directly below {@code root} (with their subpackages) form no cycle. */
    static ArchRule freeOfPackageCycles(String root) {
        return slices().matching(root + ".(*)..").should().beFreeOfCycles()
                .because("a package cycle makes two packages one: neither can be understood, tested or moved alone");
    }

    /**
     * The layers of docs/architecture.md, bottom to top: foundations, core parts, core tasks,
     * checks, runtimes; each is used only by the layers above it. So the runtime may use the
     * checks (it installs them as observers of each run and runs the step-by-step and final checks
     * at the moments it knows nothing else moves), and the checks never the runtime.
     */
    @Test
    void eachLayerIsUsedOnlyByTheLayersAboveIt() {
        eachLayerIsUsedOnlyByTheLayersAboveIt(MAIN);
    }

    static void eachLayerIsUsedOnlyByTheLayersAboveIt(JavaClasses classes) {
        layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("foundations").definedBy("dev.consistentcut.annotation..", "dev.consistentcut.message..",
                        "dev.consistentcut.text..")
                .layer("core parts").definedBy("dev.consistentcut.channel..", "dev.consistentcut.source..",
                        "dev.consistentcut.operator..", "dev.consistentcut.sink..", "dev.consistentcut.graph..",
                        "dev.consistentcut.barrier..", "dev.consistentcut.checkpoint..")
                .layer("core tasks").definedBy("dev.consistentcut.task..")
                .layer("checks").definedBy("dev.consistentcut.check..", "dev.consistentcut.causal..")
                .layer("runtimes").definedBy("dev.consistentcut.runtime..")
                .whereLayer("runtimes").mayNotBeAccessedByAnyLayer()
                .whereLayer("checks").mayOnlyBeAccessedByLayers("runtimes")
                .whereLayer("core tasks").mayOnlyBeAccessedByLayers("checks", "runtimes")
                .whereLayer("core parts").mayOnlyBeAccessedByLayers("core tasks", "checks", "runtimes")
                .because("a layer that reached up would make the layers below it depend on what they serve")
                .check(classes);
    }

    @Test
    void messagesDependOnNothingOfTheEngine() {
        messagesDependOnNothingOfTheEngine(MAIN);
    }

    static void messagesDependOnNothingOfTheEngine(JavaClasses classes) {
        onlyOnItselfAnd(classes, "dev.consistentcut.message..",
                "the messages are the spec's Messages, the vocabulary every layer above shares",
                "dev.consistentcut.annotation..");
    }

    @Test
    void textNotationsDependOnNothingOfTheEngine() {
        textNotationsDependOnNothingOfTheEngine(MAIN);
    }

    static void textNotationsDependOnNothingOfTheEngine(JavaClasses classes) {
        onlyOnItselfAnd(classes, "dev.consistentcut.text..",
                "JSON and TLA+ values are read and written alike by pictures, traces, replay and the command line");
    }

    @Test
    void theTestSeamAnnotationDependsOnNothingOfTheEngine() {
        theTestSeamAnnotationDependsOnNothingOfTheEngine(MAIN);
    }

    static void theTestSeamAnnotationDependsOnNothingOfTheEngine(JavaClasses classes) {
        onlyOnItselfAnd(classes, "dev.consistentcut.annotation..", "any package, the lowest included, may mark its test seams");
    }

    @Test
    void theCoreDependsOnNoRuntimeCheckOrTextNotation() {
        theCoreDependsOnNoRuntimeCheckOrTextNotation(MAIN);
    }

    static void theCoreDependsOnNoRuntimeCheckOrTextNotation(JavaClasses classes) {
        noClasses().that().resideInAnyPackage(CORE)
                .should().dependOnClassesThat().resideInAnyPackage(
                        "dev.consistentcut.runtime..", "dev.consistentcut.check..", "dev.consistentcut.causal..",
                        "dev.consistentcut.text..")
                .because("the core is what the runtimes run and the tools look at, never the other way round; checking"
                        + " and tracing observe its events (RunObserver), which it tells whoever observes")
                .check(classes);
    }

    @Test
    void theChecksDependOnNoRuntime() {
        theChecksDependOnNoRuntime(MAIN);
    }

    @Test
    void theInvariantsReadNoTaskEvents() {
        theInvariantsReadNoTaskEvents(MAIN);
        // The rule reaches the invariants themselves (a rule matching no class would pass for ever).
        assertTrue(MAIN.contain(CutInvariants.class) && MAIN.contain(Violation.class));
    }

    /** The checks that are no observers (CutInvariants, Violation) are formulas, not readers of the tasks' events. */
    static void theInvariantsReadNoTaskEvents(JavaClasses classes) {
        noClasses().that().resideInAPackage("dev.consistentcut.check..").and().areNotAssignableTo(RunObserver.class)
                .should().dependOnClassesThat().resideInAPackage("dev.consistentcut.task..")
                .because("the invariants are formulas over checkpoints, ledgers and channels; only the observers read events")
                .check(classes);
    }

    static void theChecksDependOnNoRuntime(JavaClasses classes) {
        noClasses().that().resideInAPackage("dev.consistentcut.check..")
                .should().dependOnClassesThat().resideInAPackage("dev.consistentcut.runtime..")
                .because("the checks observe a run's events and read checkpoints, ledgers and channels, whoever runs the job")
                .check(classes);
    }

    @Test
    void theChecksDependOnTheCoreOnly() {
        theChecksDependOnTheCoreOnly(MAIN);
    }

    static void theChecksDependOnTheCoreOnly(JavaClasses classes) {
        String[] allowed = new String[CORE.length + 1];
        System.arraycopy(CORE, 0, allowed, 0, CORE.length);
        allowed[CORE.length] = "dev.consistentcut.annotation..";
        onlyOnItselfAnd(classes, "dev.consistentcut.check..",
                "the invariants are stated over the core's values alone, so any runtime, tracer or tool can check them",
                allowed);
    }

    /** Classes of {@code pkg} in {@code classes} depend on no engine class outside {@code pkg} and {@code allowed}. */
    static void onlyOnItselfAnd(JavaClasses classes, String pkg, String because, String... allowed) {
        String[] own = new String[allowed.length + 1];
        own[0] = pkg;
        System.arraycopy(allowed, 0, own, 1, allowed.length);
        noClasses().that().resideInAPackage(pkg)
                .should().dependOnClassesThat(resideInAPackage(ENGINE).and(not(resideInAnyPackage(own))))
                .because(because)
                .check(classes);
    }
}
