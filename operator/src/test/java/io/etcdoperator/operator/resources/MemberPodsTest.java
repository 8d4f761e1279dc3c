package io.etcdoperator.operator.resources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.api.v1alpha2.EtcdOperatorApi;
import io.etcdoperator.operator.planner.MemberMaterial;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceClaim;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Volume;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class MemberPodsTest {

    private static final ResourceRequirements DEFAULT = new ResourceRequirementsBuilder()
            .addToRequests("cpu", new Quantity("100m"))
            .addToRequests("memory", new Quantity("128Mi"))
            .build();

    static Stream<Arguments> resources() {
        var requests = new ResourceRequirementsBuilder()
                .addToRequests("cpu", new Quantity("2"))
                .build();
        var limits = new ResourceRequirementsBuilder()
                .addToLimits("memory", new Quantity("1Gi"))
                .build();
        var claims = new ResourceRequirementsBuilder()
                .withClaims(new ResourceClaim("gpu", null))
                .build();
        var allEmpty = new ResourceRequirementsBuilder()
                .withRequests(Map.of())
                .withLimits(Map.of())
                .withClaims(List.of())
                .build();
        return Stream.of(
                arguments("unset", null, DEFAULT),
                arguments("all fields null", new ResourceRequirements(), DEFAULT),
                arguments("all fields empty", allEmpty, DEFAULT),
                arguments("requests only", requests, requests),
                arguments("limits only: no requests invented", limits, limits),
                arguments("claims only", claims, claims));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("resources")
    void defaultResourcesOnlyWhenNothingIsSet(String why, ResourceRequirements requested, ResourceRequirements used) {
        assertThat(MemberPods.resources(requested)).isEqualTo(used);
    }

    /** The checks of the Kubernetes "restricted" Pod Security Standard that a Pod spec can fail. */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "member-seed-plain",
                "member-joining-full",
                "member-memory",
                "member-mtls",
                "member-adopted-peer-auto-tls"
            })
    void podSatisfiesTheRestrictedPodSecurityProfile(String fixture) {
        Pod pod = MemberPods.build(Fixtures.member(fixture), "quay.io/coreos/etcd:v3.5.16", true);
        var spec = pod.getSpec();
        PodSecurityContext podContext = spec.getSecurityContext();
        assertThat(spec.getHostNetwork()).isNotEqualTo(Boolean.TRUE);
        assertThat(spec.getHostPID()).isNotEqualTo(Boolean.TRUE);
        assertThat(spec.getHostIPC()).isNotEqualTo(Boolean.TRUE);
        assertThat(podContext.getRunAsNonRoot()).isTrue();
        assertThat(podContext.getRunAsUser()).isNotNull().isNotZero();
        assertThat(podContext.getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
        assertThat(spec.getVolumes()).allSatisfy(MemberPodsTest::restrictedVolumeType);
        List<Container> containers = new ArrayList<>(spec.getContainers());
        if (spec.getInitContainers() != null) {
            containers.addAll(spec.getInitContainers());
        }
        assertThat(containers).isNotEmpty();
        for (Container c : containers) {
            SecurityContext context = c.getSecurityContext();
            assertThat(context).as(c.getName()).isNotNull();
            assertThat(context.getAllowPrivilegeEscalation()).as(c.getName()).isFalse();
            assertThat(context.getPrivileged()).as(c.getName()).isNotEqualTo(Boolean.TRUE);
            assertThat(context.getRunAsNonRoot()).as(c.getName()).isNotEqualTo(Boolean.FALSE);
            assertThat(Objects.equals(context.getRunAsUser(), 0L))
                    .as("%s runs as root", c.getName())
                    .isFalse();
            assertThat(context.getCapabilities().getDrop()).as(c.getName()).contains("ALL");
            List<String> added = context.getCapabilities().getAdd();
            assertThat(added == null ? List.<String>of() : added)
                    .as(c.getName())
                    .isSubsetOf("NET_BIND_SERVICE");
            String seccomp = context.getSeccompProfile() == null
                    ? null
                    : context.getSeccompProfile().getType();
            assertThat(seccomp).as(c.getName()).isIn(null, "RuntimeDefault", "Localhost");
            assertThat(c.getPorts()).as(c.getName()).allMatch(p -> p.getHostPort() == null);
        }
    }

    private static void restrictedVolumeType(Volume v) {
        assertThat(v.getHostPath()).as(v.getName()).isNull();
        long sources = Stream.of(
                        v.getConfigMap(),
                        v.getCsi(),
                        v.getDownwardAPI(),
                        v.getEmptyDir(),
                        v.getEphemeral(),
                        v.getPersistentVolumeClaim(),
                        v.getProjected(),
                        v.getSecret())
                .filter(s -> s != null)
                .count();
        assertThat(sources)
                .as("%s uses exactly one volume type allowed by the restricted profile", v.getName())
                .isEqualTo(1);
    }

    @Test
    void roleLabelFollowsIsVoter() {
        EtcdMember member = Fixtures.member("member-seed-plain");
        assertThat(labels(member)).containsEntry(EtcdOperatorApi.LABEL_ROLE, "voter");
        member.getStatus().setIsVoter(false);
        assertThat(labels(member)).doesNotContainKey(EtcdOperatorApi.LABEL_ROLE);
        member.setStatus(null);
        assertThat(labels(member)).doesNotContainKey(EtcdOperatorApi.LABEL_ROLE);
    }

    @Test
    void userMetadataCannotForgeTheVoterRole() {
        EtcdMember learner = Fixtures.member("member-joining-full");
        assertThat(learner.getSpec().getAdditionalMetadata().getLabels()).containsKey(EtcdOperatorApi.LABEL_ROLE);
        assertThat(labels(learner)).doesNotContainKey(EtcdOperatorApi.LABEL_ROLE);
    }

    @Test
    void podRecordsTheTlsMaterialStampedOnItsMemberAndNothingElseOfTheMembersAnnotations() {
        EtcdMember member = Fixtures.member("member-seed-plain");
        var material = new MemberMaterial("aa", "bb", List.of("c1", "c2"));
        Map<String, String> stamped = new HashMap<>(material.annotations());
        stamped.put("kubectl.kubernetes.io/last-applied-configuration", "{}");
        member.getMetadata().setAnnotations(stamped);
        Map<String, String> annotations =
                MemberPods.build(member, "etcd", false).getMetadata().getAnnotations();
        assertThat(annotations)
                .containsAllEntriesOf(material.annotations())
                .doesNotContainKey("kubectl.kubernetes.io/last-applied-configuration");
        assertThat(MemberMaterial.fromAnnotations(annotations)).contains(material);

        member.getMetadata().setAnnotations(null);
        assertThat(MemberPods.build(member, "etcd", false).getMetadata().getAnnotations())
                .doesNotContainKey(MemberMaterial.SERVER_ANNOTATION);
    }

    @Test
    void podLabelsMatchEveryOperatorSelector() {
        Map<String, String> labels = labels(Fixtures.member("member-seed-plain"));
        assertThat(labels).containsAllEntriesOf(Labels.selector("demo")).containsAllEntriesOf(Labels.voters("demo"));
    }

    @Test
    void onlyDiskMembersMountAClaim() {
        assertThat(MemberPods.memoryBacked(Fixtures.member("member-memory").getSpec()))
                .isTrue();
        assertThat(MemberPods.memoryBacked(Fixtures.member("member-seed-plain").getSpec()))
                .isFalse();
        Pod pod = MemberPods.build(Fixtures.member("member-seed-plain"), "etcd", false);
        assertThat(pod.getSpec().getVolumes())
                .filteredOn(v -> v.getPersistentVolumeClaim() != null)
                .extracting(v -> v.getPersistentVolumeClaim().getClaimName())
                .containsExactly("data-demo-4kq7m");
    }

    /** /livez exists from 3.5.11 on; an older etcd would answer 404 and be killed, so it keeps the TCP check. */
    @ParameterizedTest
    @ValueSource(strings = {"3.5.11", "3.5.16", "3.6.0", "3.7.1"})
    void etcdThatServesLivezIsProbedThereOnThePlainMetricsListener(String version) {
        var liveness = MemberPods.liveness(version);
        assertThat(liveness.getHttpGet().getPath()).isEqualTo("/livez");
        assertThat(liveness.getHttpGet().getScheme()).isEqualTo("HTTP");
        assertThat(liveness.getHttpGet().getPort().getIntVal()).isEqualTo(Names.METRICS_PORT);
        assertThat(liveness.getTcpSocket()).isNull();
        assertThat(MemberPods.startup(version))
                .hasValueSatisfying(s -> assertThat(s.getHttpGet().getPath()).isEqualTo("/livez"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"3.4.23", "3.5.0", "3.5.10", "not-a-version"})
    void olderEtcdKeepsTheTcpCheckAndNoStartupProbe(String version) {
        var liveness = MemberPods.liveness(version);
        assertThat(liveness.getHttpGet()).isNull();
        assertThat(liveness.getTcpSocket().getPort().getIntVal()).isEqualTo(Names.PEER_PORT);
        assertThat(MemberPods.startup(version)).isEmpty();
    }

    /** A defragment blocks local reads and one may take the operator's 2 minutes; liveness must outlast it. */
    @Test
    void livenessOutlastsADefragmentAndStartupOutlastsALongLoad() {
        var liveness = MemberPods.liveness("3.5.16");
        assertThat(liveness.getPeriodSeconds() * liveness.getFailureThreshold()).isGreaterThan(120);
        assertThat(liveness.getTimeoutSeconds()).isLessThan(liveness.getPeriodSeconds());
        var startup = MemberPods.startup("3.5.16").orElseThrow();
        assertThat(startup.getPeriodSeconds()).isEqualTo(1);
        assertThat(startup.getPeriodSeconds() * startup.getFailureThreshold()).isGreaterThanOrEqualTo(600);
    }

    @Test
    void aPodOfA35MemberCarriesTheStartupProbe() {
        Pod pod = MemberPods.build(Fixtures.member("member-seed-plain"), "etcd", false);
        assertThat(pod.getSpec().getContainers().getFirst().getStartupProbe()).isNotNull();
        assertThat(pod.getSpec()
                        .getContainers()
                        .getFirst()
                        .getLivenessProbe()
                        .getHttpGet()
                        .getPath())
                .isEqualTo("/livez");
    }

    private static Map<String, String> labels(EtcdMember member) {
        return MemberPods.build(member, "etcd", false).getMetadata().getLabels();
    }
}
