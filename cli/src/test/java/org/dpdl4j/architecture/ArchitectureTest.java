package org.dpdl4j.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The layering of the modules and of the core's packages, checked over the class files so that it stays as it is: no
 * module reaches up to one built on it, the core library knows no cluster, no GPU and no command line, and inside the
 * core the privacy primitives know nothing of training, training nothing of the protocols.
 */
class ArchitectureTest {
    private static final String CORE = "org.dpdl4j.(privacy|optim|graph|protocol|runtime|nn|linalg|tuning|audit)..";
    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("org.dpdl4j");
    }

    @Test
    void modulesDependOnlyOnTheModulesBelowThem() {
        layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("data").definedBy("org.dpdl4j.data..")
                .layer("models").definedBy("org.dpdl4j.models..")
                .layer("core").definedBy(CORE)
                .layer("attacks").definedBy("org.dpdl4j.attacks..")
                .layer("experiments").definedBy("org.dpdl4j.experiments..")
                .layer("spark").definedBy("org.dpdl4j.spark..")
                .layer("cuda").definedBy("org.dpdl4j.cuda..")
                .layer("cli").definedBy("org.dpdl4j.cli..")
                .whereLayer("cli").mayNotBeAccessedByAnyLayer()
                .whereLayer("experiments").mayOnlyBeAccessedByLayers("cli")
                .whereLayer("spark").mayOnlyBeAccessedByLayers("cli")
                .whereLayer("cuda").mayOnlyBeAccessedByLayers("cli")
                .whereLayer("attacks").mayOnlyBeAccessedByLayers("experiments", "cli")
                .whereLayer("core").mayOnlyBeAccessedByLayers("attacks", "experiments", "spark", "cuda", "cli")
                .whereLayer("models").mayOnlyBeAccessedByLayers("core", "attacks", "experiments", "spark", "cuda", "cli")
                .check(classes);
    }

    @Test
    void theCoreKnowsNoClusterNoGpuAndNoCommandLine() {
        noClasses().that().resideInAPackage(CORE)
                .should().dependOnClassesThat().resideInAnyPackage("org.apache.spark..", "org.bytedeco.cuda..",
                        "picocli..", "org.dpdl4j.experiments..", "org.dpdl4j.cli..")
                .check(classes);
    }

    @Test
    void privacyPrimitivesKnowNothingOfTrainingOrProtocols() {
        noClasses().that().resideInAPackage("org.dpdl4j.privacy..")
                .should().dependOnClassesThat().resideInAnyPackage("org.dpdl4j.optim..", "org.dpdl4j.runtime..",
                        "org.dpdl4j.protocol..", "org.deeplearning4j..")
                .check(classes);
    }

    @Test
    void theGraphsKnowNothingOfTrainingOrProtocols() {
        noClasses().that().resideInAPackage("org.dpdl4j.graph..")
                .should().dependOnClassesThat().resideInAnyPackage("org.dpdl4j.optim..", "org.dpdl4j.runtime..",
                        "org.dpdl4j.protocol..")
                .check(classes);
    }

    @Test
    void trainingKnowsNoProtocol() {
        noClasses().that().resideInAnyPackage("org.dpdl4j.optim..", "org.dpdl4j.runtime..")
                .should().dependOnClassesThat().resideInAPackage("org.dpdl4j.protocol..")
                .check(classes);
    }

    @Test
    void protocolFamiliesDoNotReachIntoEachOther() {
        for (String family : new String[] {"central", "decentralized", "federated", "recal", "randomwalk", "personalized", "muffliato"}) {
            noClasses().that().resideInAPackage("org.dpdl4j.protocol." + family + "..")
                    .should().dependOnClassesThat().resideInAnyPackage(otherFamilies(family))
                    .check(classes);
        }
    }

    private static String[] otherFamilies(String family) {
        return java.util.stream.Stream.of("central", "decentralized", "federated", "recal", "randomwalk", "personalized", "muffliato")
                .filter(f -> !f.equals(family)).map(f -> "org.dpdl4j.protocol." + f + "..").toArray(String[]::new);
    }
}
