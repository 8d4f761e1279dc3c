package io.etcdoperator.operator.admission;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class DeletionProtectionTest {

    static final DeletionCases CASES = DeletionCases.load();
    final DeletionProtection protection = new DeletionProtection(CASES.operatorUser());

    static Stream<DeletionCases.Case> cases() {
        return CASES.cases().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void answersEachSharedCase(DeletionCases.Case c) {
        DeletionProtection.Verdict verdict = protection.decide(Deletion.of(c.admissionRequest()));
        assertThat(verdict.allowed()).isEqualTo(c.allowed());
        if (!c.allowed()) {
            assertThat(verdict.message()).isEqualTo(c.message()).contains(DeletionProtection.ANNOTATION_ALLOW_DELETE);
        }
    }

    @Test
    void theSharedCasesGoBothWays() {
        assertThat(CASES.cases()).anyMatch(DeletionCases.Case::allowed).anyMatch(c -> !c.allowed());
    }

    @Test
    void onlyDeletionsAreJudged() {
        var update = new Deletion(
                "UPDATE",
                "etcd-operator.cozystack.io",
                "etcdmembers",
                "EtcdMember",
                "team-a",
                "m",
                "kubernetes-admin",
                Map.of(),
                Map.of());
        assertThat(protection.decide(update).allowed()).isTrue();
        var delete = new Deletion(
                "DELETE",
                "etcd-operator.cozystack.io",
                "etcdmembers",
                "EtcdMember",
                "team-a",
                "m",
                "kubernetes-admin",
                Map.of(),
                Map.of());
        assertThat(protection.decide(delete).allowed()).isFalse();
    }

    @Test
    void membersOutsideTheWatchedNamespacesAreAnotherOperators() {
        var watching = new DeletionProtection(CASES.operatorUser(), Set.of("team-b"));
        var refusedElsewhere =
                Deletion.of(WebhookServerTest.named("a person deletes a member").admissionRequest());
        assertThat(watching.decide(refusedElsewhere).allowed()).isTrue();
        assertThat(new DeletionProtection(CASES.operatorUser(), Set.of("team-a", "team-b"))
                        .decide(refusedElsewhere)
                        .allowed())
                .isFalse();
    }

    @Test
    void aPvcOfAnotherGroupIsNotAMemberVolume() {
        var labels = Map.of("etcd-operator.cozystack.io/cluster", "c1", "app.kubernetes.io/component", "c1-abcde");
        var other = new Deletion(
                "DELETE",
                "example.com",
                "persistentvolumeclaims",
                "X",
                "team-a",
                "x",
                "kubernetes-admin",
                labels,
                Map.of());
        assertThat(protection.decide(other).allowed()).isTrue();
    }
}
