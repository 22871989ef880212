package dev.consistentcut;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import dev.consistentcut.check.CutInvariants;
import dev.consistentcut.check.Violation;
import org.junit.jupiter.api.Test;

/**
 * The layers of reference-impl's main code (docs/architecture.md), checked on its byte code with
 * ArchUnit: no package depends, even through others, on itself, and each layer depends only on
 * the layers below it. Plain JUnit tests (not ArchUnit's own engine), so the per-test timeout of
 * junit-platform.properties covers them too.
 */
class ArchitectureTest {

    private static final String ENGINE = "dev.consistentcut..";

    /** The engine's core: what a job is and how its tasks, channels and checkpoints work. */
    private static final String[] CORE = {
        "dev.consistentcut.message..", "dev.consistentcut.channel..", "dev.consistentcut.barrier..",
        "dev.consistentcut.graph..", "dev.consistentcut.operator..", "dev.consistentcut.source..",
        "dev.consistentcut.sink..", "dev.consistentcut.checkpoint..", "dev.consistentcut.task..",
    };

    /** The tools around the engine: command line, spec replay, pictures, trace recording and validation. */
    private static final String[] TOOLS = {
        "dev.consistentcut.cli..", "dev.consistentcut.replay..", "dev.consistentcut.picture..",
        "dev.consistentcut.trace..",
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

    /** The layers of docs/architecture.md, bottom to top: each is used only by the layers above it. */
    @Test
    void eachLayerIsUsedOnlyByTheLayersAboveIt() {
        layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("foundations").definedBy("dev.consistentcut.annotation..", "dev.consistentcut.message..",
                        "dev.consistentcut.text..")
                .layer("core parts").definedBy("dev.consistentcut.channel..", "dev.consistentcut.source..",
                        "dev.consistentcut.operator..", "dev.consistentcut.sink..", "dev.consistentcut.graph..",
                        "dev.consistentcut.barrier..", "dev.consistentcut.checkpoint..")
                .layer("core tasks").definedBy("dev.consistentcut.task..")
                .layer("checks").definedBy("dev.consistentcut.check..", "dev.consistentcut.causal..")
                .layer("runtimes").definedBy("dev.consistentcut.runtime..")
                .layer("tools").definedBy("dev.consistentcut.picture..", "dev.consistentcut.trace..", "dev.consistentcut.replay..")
                .layer("command line").definedBy("dev.consistentcut.cli..")
                .whereLayer("command line").mayNotBeAccessedByAnyLayer()
                .whereLayer("tools").mayOnlyBeAccessedByLayers("command line")
                .whereLayer("runtimes").mayOnlyBeAccessedByLayers("tools", "command line")
                .whereLayer("checks").mayOnlyBeAccessedByLayers("runtimes", "tools", "command line")
                .whereLayer("core tasks").mayOnlyBeAccessedByLayers("checks", "runtimes", "tools", "command line")
                .whereLayer("core parts").mayOnlyBeAccessedByLayers("core tasks", "checks", "runtimes", "tools", "command line")
                .because("a layer that reached up would make the layers below it depend on what they serve")
                .check(MAIN);
    }

    @Test
    void messagesDependOnNothingOfTheEngine() {
        onlyOnItselfAnd("dev.consistentcut.message..",
                "the messages are the spec's Messages, the vocabulary every layer above shares",
                "dev.consistentcut.annotation..");
    }

    @Test
    void textNotationsDependOnNothingOfTheEngine() {
        onlyOnItselfAnd("dev.consistentcut.text..",
                "JSON and TLA+ values are read and written alike by pictures, traces, replay and the command line");
    }

    @Test
    void theTestSeamAnnotationDependsOnNothingOfTheEngine() {
        onlyOnItselfAnd("dev.consistentcut.annotation..", "any package, the lowest included, may mark its test seams");
    }

    @Test
    void theCoreDependsOnNoRuntimeCheckOrTool() {
        noClasses().that().resideInAnyPackage(CORE)
                .should().dependOnClassesThat().resideInAnyPackage(
                        "dev.consistentcut.runtime..", "dev.consistentcut.check..", "dev.consistentcut.causal..",
                        "dev.consistentcut.text..", "dev.consistentcut.cli..", "dev.consistentcut.replay..",
                        "dev.consistentcut.picture..", "dev.consistentcut.trace..")
                .because("the core is what the runtimes run and the tools look at, never the other way round; checking"
                        + " and tracing observe its events (RunObserver), which it tells whoever observes")
                .check(MAIN);
    }

    @Test
    void theRuntimesAndTheInvariantsDependOnNoTool() {
        noClasses().that().resideInAnyPackage("dev.consistentcut.runtime..", "dev.consistentcut.check..",
                        "dev.consistentcut.causal..")
                .should().dependOnClassesThat().resideInAnyPackage(TOOLS)
                .because("the tools drive and record runs; a run needs none of them")
                .check(MAIN);
        noClasses().that().resideInAPackage("dev.consistentcut.check..")
                .should().dependOnClassesThat().resideInAPackage("dev.consistentcut.runtime..")
                .because("the checks observe a run's events and read checkpoints, ledgers and channels, whoever runs the job")
                .check(MAIN);
        noClasses().that().belongToAnyOf(CutInvariants.class, Violation.class)
                .should().dependOnClassesThat().resideInAPackage("dev.consistentcut.task..")
                .because("the invariants are formulas over checkpoints, ledgers and channels; only the observers read events")
                .check(MAIN);
        // Not yet: runtime must not depend on check. The runtimes still run the step-by-step and
        // final checks themselves, at the moments they know nothing else moves.
    }

    @Test
    void picturesReadOnlyTheTextNotations() {
        onlyOnItselfAnd("dev.consistentcut.picture..",
                "a picture is drawn from a TLC trace or an engine trace, not from the engine",
                "dev.consistentcut.text..", "dev.consistentcut.annotation..");
    }

    @Test
    void onlyTheCommandLineDependsOnTheCommandLine() {
        noClasses().that().resideOutsideOfPackage("dev.consistentcut.cli..")
                .should().dependOnClassesThat().resideInAPackage("dev.consistentcut.cli..")
                .because("cli is the top layer: Main dispatches to the tools, no tool reaches back")
                .check(MAIN);
        noClasses().that().resideInAnyPackage("dev.consistentcut.trace..", "dev.consistentcut.picture..")
                .should().dependOnClassesThat().resideInAPackage("dev.consistentcut.replay..")
                .because("the spec replay sits beside the trace tooling, neither needs the other")
                .check(MAIN);
    }

    /** Classes of {@code pkg} depend on no engine class outside {@code pkg} and {@code allowed}. */
    private static void onlyOnItselfAnd(String pkg, String because, String... allowed) {
        String[] own = new String[allowed.length + 1];
        own[0] = pkg;
        System.arraycopy(allowed, 0, own, 1, allowed.length);
        noClasses().that().resideInAPackage(pkg)
                .should().dependOnClassesThat(resideInAPackage(ENGINE).and(not(resideInAnyPackage(own))))
                .because(because)
                .check(MAIN);
    }
}
