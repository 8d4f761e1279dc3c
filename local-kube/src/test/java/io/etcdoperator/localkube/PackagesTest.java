package io.etcdoperator.localkube;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * local-kube by concern: the control plane (this package) composes the scheduler, the node runtime, the Pod network,
 * storage and simulated etcd; none of them reaches back into it, and the scheduler knows nothing of nodes' insides.
 */
class PackagesTest {

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.etcdoperator.localkube");
    }

    @Test
    void packagesHaveNoCycles() {
        slices().matching("io.etcdoperator.localkube.(*)..")
                .should()
                .beFreeOfCycles()
                .check(classes);
    }

    @Test
    void noConcernReachesBackIntoTheControlPlane() {
        noClasses()
                .that()
                .resideInAnyPackage(
                        "..localkube.node..",
                        "..localkube.network..",
                        "..localkube.scheduler..",
                        "..localkube.simetcd..",
                        "..localkube.storage..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("io.etcdoperator.localkube")
                .check(classes);
    }

    @Test
    void theSchedulerBindsThroughTheApiServerAlone() {
        noClasses()
                .that()
                .resideInAPackage("..localkube.scheduler..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "..localkube.node..", "..localkube.network..", "..localkube.simetcd..", "..localkube.storage..")
                .check(classes);
    }
}
