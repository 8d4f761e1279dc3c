package io.etcdoperator.operator.planner;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdClusterStatus;
import io.etcdoperator.api.v1alpha2.EtcdOperatorApi;
import io.etcdoperator.operator.reason.Reason;
import io.etcdoperator.operator.resources.NameRules;
import io.etcdoperator.operator.resources.Names;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every spec the CRD may let through (old servers skip CEL; some limits are the operator's own) and the operator
 * cannot serve: refused as InvalidSpec, with a message that names the field. Each case also runs its nearest valid
 * neighbour, so a refusal never comes from somewhere else in the spec.
 */
class InvalidSpecTableTest {

    private static final String VALID = """
      apiVersion: etcd-operator.cozystack.io/v1alpha2
      kind: EtcdCluster
      metadata: {name: tenant, namespace: default}
      spec:
        replicas: 3
        version: 3.5.16
        storage: {size: 1Gi}
      """;

    static Stream<Arguments> refused() {
        return Stream.of(
                row("version overflowing an int", "version: 3.5.99999999999999999999", "spec.version"),
                row("version with a 10-digit major", "version: 1234567890.5.16", "spec.version"),
                row("replicas over the ceiling", "replicas: 8", "spec.replicas"),
                row("disk volume under the floor", "storage: {size: 64Mi}", "spec.storage.size"),
                row("memory volume under the floor", "storage: {size: 100Mi, medium: Memory}", "spec.storage.size"),
                row("size that is no quantity", "storage: {size: lots}", "spec.storage.size"),
                row("quota under the floor", "options: {quotaBackendBytes: 8388607}", "spec.options.quotaBackendBytes"),
                row(
                        "a duration as a revision count",
                        "options: {autoCompactionMode: revision, autoCompactionRetention: 1h}",
                        "spec.options.autoCompactionRetention"),
                row(
                        "label key with a space",
                        "additionalMetadata: {labels: {'team name': a}}",
                        "spec.additionalMetadata.labels key 'team name'"),
                row(
                        "label key with two slashes",
                        "additionalMetadata: {labels: {'a/b/c': x}}",
                        "spec.additionalMetadata.labels key 'a/b/c'"),
                row(
                        "label key with an upper-case prefix",
                        "additionalMetadata: {labels: {'Example.com/team': x}}",
                        "spec.additionalMetadata.labels key 'Example.com/team'"),
                row(
                        "label key name over 63",
                        "additionalMetadata: {labels: {'" + "k".repeat(64) + "': x}}",
                        "spec.additionalMetadata.labels key"),
                row(
                        "label key prefix over 253",
                        "additionalMetadata: {labels: {'" + "p".repeat(254) + "/team': x}}",
                        "spec.additionalMetadata.labels key"),
                row(
                        "label value over 63",
                        "additionalMetadata: {labels: {team: " + "v".repeat(64) + "}}",
                        "spec.additionalMetadata.labels['team'] value"),
                row(
                        "label value ending in a dash",
                        "additionalMetadata: {labels: {team: 'infra-'}}",
                        "spec.additionalMetadata.labels['team'] value"),
                row(
                        "annotation key with an empty prefix",
                        "additionalMetadata: {annotations: {'/note': x}}",
                        "spec.additionalMetadata.annotations key '/note'"),
                row(
                        "annotations over 256KiB",
                        "additionalMetadata: {annotations: {note: " + "n".repeat(262_145) + "}}",
                        "spec.additionalMetadata.annotations must total"),
                row(
                        "memory request over its limit",
                        "resources: {requests: {memory: 2Gi}, limits: {memory: 1Gi}}",
                        "spec.resources.requests.memory (2Gi) must not exceed spec.resources.limits.memory (1Gi)"),
                row(
                        "cpu request over its limit",
                        "resources: {requests: {cpu: 1500m}, limits: {cpu: '1'}}",
                        "spec.resources.requests.cpu"),
                row("negative limit", "resources: {limits: {memory: -1Gi}}", "spec.resources.limits.memory"),
                row("limit that is no quantity", "resources: {limits: {cpu: fast}}", "spec.resources.limits.cpu"));
    }

    private static Arguments row(String what, String field, String named) {
        return Arguments.of(what, field, named);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refused")
    void isRefusedAsInvalidSpecNamingTheField(String what, String specField, String named) {
        List<Refusal> refusals = Refusals.of(with(specField).getSpec(), new EtcdClusterStatus());

        assertThat(refusals)
                .as(what)
                .isNotEmpty()
                .allSatisfy(r -> assertThat(r.reason()).isEqualTo(Reason.INVALID_SPEC));
        assertThat(refusals)
                .extracting(Refusal::message)
                .anySatisfy(m -> assertThat(m).contains(named));
    }

    @Test
    void theValidSpecAndTheLimitsThemselvesAreAccepted() {
        assertThat(Refusals.of(with("replicas: 3").getSpec(), new EtcdClusterStatus()))
                .isEmpty();
        for (String atLimit : List.of(
                "replicas: 7",
                "storage: {size: 128Mi}",
                "storage: {size: 128Mi, medium: Memory}",
                "options: {quotaBackendBytes: 8388608}",
                "options: {quotaBackendBytes: 0}",
                "version: 3.5.999999999",
                "additionalMetadata: {labels: {'example.com/team': infra, empty: ''}, annotations: {'note': 'any text'}}",
                "resources: {requests: {cpu: 500m, memory: 1Gi}, limits: {cpu: '1', memory: 1Gi}}")) {
            assertThat(Refusals.of(with(atLimit).getSpec(), new EtcdClusterStatus()))
                    .as(atLimit)
                    .isEmpty();
        }
    }

    @Test
    void anUnboundedVersionParsesToNothingInsteadOfThrowing() {
        assertThat(VersionPolicy.EtcdVersion.parse("3.5.99999999999999999999")).isEmpty();
        assertThat(VersionPolicy.EtcdVersion.parse("99999999999.5.16")).isEmpty();
        assertThat(VersionPolicy.checkRunnable("3.99999999999.1"))
                .get()
                .extracting(Refusal::reason)
                .isEqualTo(Reason.UNSUPPORTED_VERSION);
    }

    @Test
    void anUnboundedVersionChangeOnARunningClusterIsRefusedToo() {
        EtcdCluster running = with("version: 3.5.16");
        EtcdClusterStatus status = new EtcdClusterStatus();
        status.setObserved(TargetLatch.snapshot(running.getSpec()));
        status.setVersion("3.5.16");

        List<Refusal> refusals =
                Refusals.of(with("version: 3.5.99999999999999999999").getSpec(), status);

        assertThat(refusals)
                .extracting(Refusal::message)
                .anySatisfy(m -> assertThat(m).startsWith("spec.version"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badNames")
    void aNameKubernetesCannotDeriveObjectNamesFromIsRefused(String name, String because) {
        assertThat(NameRules.check(name).stream().map(Refusal::invalid).toList())
                .singleElement()
                .satisfies(r -> {
                    assertThat(r.reason()).isEqualTo(Reason.INVALID_SPEC);
                    assertThat(r.message()).startsWith("metadata.name").contains(because);
                });
    }

    static Stream<Arguments> badNames() {
        return Stream.of(
                Arguments.of("a".repeat(NameRules.longest() + 1), "client Service"),
                Arguments.of("a".repeat(253), "at most 56 characters"),
                Arguments.of("tenant.a", "DNS label"),
                Arguments.of("1tenant", "DNS label"),
                Arguments.of("Tenant", "DNS label"),
                Arguments.of("tenant-", "DNS label"));
    }

    @Test
    void theLongestNameFitsEveryDerivedNameAndIsTheCrdsLimit() {
        String longest = "a".repeat(NameRules.longest());

        assertThat(NameRules.check(longest)).isEmpty();
        assertThat(Names.dnsLabelsOf(longest).values())
                .allSatisfy(n -> assertThat(n).hasSizeLessThanOrEqualTo(63));
        assertThat(Names.dnsLabelsOf(longest + "a").values())
                .anySatisfy(n -> assertThat(n).hasSizeGreaterThan(63));
        assertThat(NameRules.longest()).as("the CRD's CEL rule").isEqualTo(EtcdOperatorApi.MAX_CLUSTER_NAME);
    }

    private static EtcdCluster with(String specField) {
        String yaml = VALID.replaceFirst("(?m)^  " + specField.split(":")[0] + ":.*$", "");
        return Serialization.unmarshal(yaml + "  " + specField + "\n", EtcdCluster.class);
    }
}
