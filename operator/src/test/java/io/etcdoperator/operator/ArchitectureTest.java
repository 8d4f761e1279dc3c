package io.etcdoperator.operator;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.time.Clock;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Pure decisions, thin actions: the planner, the builders and the status assessment see values only. They import
 * no Kubernetes client, no jetcd or gRPC, no logger and no clock, and the operator's packages have no cycles.
 */
class ArchitectureTest {

  private static final String[] PURE = {"..operator.planner..", "..operator.resources..", "..operator.status..",
      "..operator.reason.."};
  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("io.etcdoperator.operator");
  }

  @Test
  void pureCodeTalksToNoKubernetesClient() {
    noClasses().that().resideInAnyPackage(PURE).should().dependOnClassesThat()
        .resideInAnyPackage("io.fabric8.kubernetes.client..").check(classes);
  }

  @Test
  void pureCodeTalksToNoEtcd() {
    noClasses().that().resideInAnyPackage(PURE).should().dependOnClassesThat()
        .resideInAnyPackage("io.etcd.jetcd..", "io.grpc..").check(classes);
  }

  @Test
  void pureCodeNeitherLogsNorReadsAClock() {
    noClasses().that().resideInAnyPackage(PURE).should().dependOnClassesThat()
        .resideInAnyPackage("org.slf4j..").orShould().dependOnClassesThat().areAssignableTo(Clock.class)
        .check(classes);
  }

  @Test
  void onlyTheEtcdClientModuleImportsJetcd() {
    noClasses().should().dependOnClassesThat().resideInAnyPackage("io.etcd.jetcd..").check(classes);
  }

  @Test
  void packagesHaveNoCycles() {
    slices().matching("io.etcdoperator.operator.(*)..").should().beFreeOfCycles().check(classes);
  }
}
