package io.etcdoperator.operator;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.time.Clock;
import java.time.Instant;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Pure decisions, thin actions: the planner, the builders and the status assessment see values only. They import
 * no Kubernetes client, no jetcd or gRPC, no logger and no clock, and the operator's packages have no cycles.
 */
class ArchitectureTest {

    private static final String[] PURE = {
        "..operator.planner..",
        "..operator.resources..",
        "..operator.status..",
        "..operator.reason..",
        "..operator.schedule.."
    };
    /**
     * The pure code that lives beside its controller: the snapshot and restore plans, a schedule's status, what
     * an agent reported, and an EtcdMember read into the planner's values.
     */
    private static final String[] PURE_CLASSES = {
        "io.etcdoperator.operator.snapshot.SnapshotProgress",
        "io.etcdoperator.operator.snapshot.VerifyProgress",
        "io.etcdoperator.operator.snapshot.ScheduleStatus",
        "io.etcdoperator.operator.snapshot.AgentReport",
        "io.etcdoperator.operator.member.RestoreProgress",
        "io.etcdoperator.operator.cluster.MemberObservations"
    };

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.etcdoperator.operator");
    }

    @Test
    void pureCodeTalksToNoKubernetesClient() {
        noClasses()
                .that()
                .resideInAnyPackage(PURE)
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("io.fabric8.kubernetes.client..")
                .check(classes);
    }

    @Test
    void pureCodeTalksToNoEtcd() {
        noClasses()
                .that()
                .resideInAnyPackage(PURE)
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("io.etcd.jetcd..", "io.grpc..")
                .check(classes);
    }

    @Test
    void pureCodeNeitherLogsNorReadsAClock() {
        noClasses()
                .that()
                .resideInAnyPackage(PURE)
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("org.slf4j..")
                .orShould()
                .dependOnClassesThat()
                .areAssignableTo(Clock.class)
                .check(classes);
    }

    @Test
    void pureCodeAsksNoClockForTheTime() {
        noClasses()
                .that()
                .resideInAnyPackage(PURE)
                .or(pureClass())
                .should()
                .callMethod(Instant.class, "now")
                .orShould()
                .callMethod(System.class, "currentTimeMillis")
                .orShould()
                .callMethod(System.class, "nanoTime")
                .check(classes);
    }

    @Test
    void theDecidersBesideTheControllersArePureToo() {
        noClasses()
                .that(pureClass())
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("io.fabric8.kubernetes.client..", "io.etcd.jetcd..", "io.grpc..", "org.slf4j..")
                .orShould()
                .dependOnClassesThat()
                .areAssignableTo(Clock.class)
                .check(classes);
    }

    private static DescribedPredicate<JavaClass> pureClass() {
        Set<String> names = Set.of(PURE_CLASSES);
        return DescribedPredicate.describe(
                "a pure decider beside its controller",
                c -> names.contains(c.getName()) || names.contains(c.getName().replaceAll("\\$.*", "")));
    }

    @Test
    void onlyTheEtcdClientModuleImportsJetcd() {
        noClasses()
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("io.etcd.jetcd..")
                .check(classes);
    }

    /** Snapshot and defrag schedules share the cron, the slot and the retention through {@code schedule} alone. */
    @Test
    void theTwoSchedulesShareOnlyTheSchedulePackage() {
        noClasses()
                .that()
                .resideInAPackage("..operator.defrag..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("..operator.snapshot..")
                .check(classes);
    }

    @Test
    void packagesHaveNoCycles() {
        slices().matching("io.etcdoperator.operator.(*)..")
                .should()
                .beFreeOfCycles()
                .check(classes);
    }
}
