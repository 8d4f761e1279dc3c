package io.etcdoperator.operator.resources;

import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.api.v1alpha2.EtcdMemberSpec;
import io.etcdoperator.api.v1alpha2.EtcdOperatorApi;
import io.etcdoperator.operator.planner.MemberMaterial;
import io.etcdoperator.operator.planner.SpecRules;
import io.etcdoperator.operator.planner.VersionPolicy;
import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.AffinityBuilder;
import io.fabric8.kubernetes.api.model.Capabilities;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.ContainerPortBuilder;
import io.fabric8.kubernetes.api.model.HTTPGetAction;
import io.fabric8.kubernetes.api.model.HTTPGetActionBuilder;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.ProbeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.api.model.SecurityContextBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The Pod of one etcd member. Restricted-PodSecurity compatible; everything comes from the EtcdMember. */
public final class MemberPods {

    public static final String CONTAINER = "etcd";
    public static final long NON_ROOT_ID = 65532L;

    private MemberPods() {}

    /**
     * @param image the etcd image for spec.version
     * @param existingCluster see {@link EtcdCommandLine#args}
     */
    public static Pod build(EtcdMember member, String image, boolean existingCluster) {
        return build(member, image, existingCluster, Optional.empty());
    }

    /** As above; a seed restoring a snapshot also gets the agent's restore init container (see {@link AgentContainers}). */
    public static Pod build(EtcdMember member, String image, boolean existingCluster, Optional<AgentImage> agent) {
        Pod pod = template(member, image, existingCluster, agent);
        pod.getMetadata().getAnnotations().put(EtcdOperatorApi.ANNOTATION_REVISION, revision(member));
        return pod;
    }

    /**
     * The hash of what etcd runs with in this member's Pod (see {@link Revision#ofMemberPod}), over the form a restart
     * builds (existing cluster, no restore, no guard, a placeholder image per version): it changes only when a restart
     * would start etcd differently, never because the operator renders its own decorations differently.
     */
    public static String revision(EtcdMember member) {
        Pod canonical = template(member, "etcd:v" + member.getSpec().getVersion(), true, Optional.empty());
        return Revision.ofMemberPod(canonical, CONTAINER, operatorLabels(member));
    }

    /** The labels the operator stamps on a member Pod; the user's own (additionalMetadata) are the rest. */
    static Set<String> operatorLabels(EtcdMember member) {
        Set<String> keys = new HashSet<>(Labels.member(
                        member.getSpec().getClusterName(), member.getMetadata().getName())
                .keySet());
        keys.add(EtcdOperatorApi.LABEL_ROLE);
        return keys;
    }

    private static Pod template(EtcdMember member, String image, boolean existingCluster, Optional<AgentImage> agent) {
        EtcdMemberSpec spec = member.getSpec();
        String name = member.getMetadata().getName();
        Map<String, String> labels = new LinkedHashMap<>(Labels.member(spec.getClusterName(), name));
        if (member.getStatus() != null && Boolean.TRUE.equals(member.getStatus().getIsVoter())) {
            labels.put(EtcdOperatorApi.LABEL_ROLE, EtcdOperatorApi.ROLE_VOTER);
        }
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(member.getMetadata().getNamespace())
                .withLabels(new LinkedHashMap<>(Labels.withUserLabels(labels, spec.getAdditionalMetadata())))
                .withAnnotations(new LinkedHashMap<>(
                        Labels.withUserAnnotations(tlsMaterial(member), spec.getAdditionalMetadata())))
                .withOwnerReferences(Owners.controller(member))
                .endMetadata()
                .withNewSpec()
                .withHostname(name)
                .withSubdomain(Names.memberService(member))
                .withAutomountServiceAccountToken(false)
                .withEnableServiceLinks(false)
                .withNewSecurityContext()
                .withRunAsNonRoot(true)
                .withRunAsUser(NON_ROOT_ID)
                .withRunAsGroup(NON_ROOT_ID)
                .withFsGroup(NON_ROOT_ID)
                .withNewSeccompProfile()
                .withType("RuntimeDefault")
                .endSeccompProfile()
                .endSecurityContext()
                .withInitContainers(initContainers(member, existingCluster, agent))
                .withContainers(new ContainerBuilder()
                        .withName(CONTAINER)
                        .withImage(image)
                        .withCommand(
                                agent.isPresent()
                                        ? EtcdGuard.command(member, existingCluster)
                                        : List.of(EtcdGuard.ETCD))
                        .withArgs(EtcdCommandLine.args(member, existingCluster))
                        .withTerminationMessagePolicy("FallbackToLogsOnError") // the log's tail says why etcd exited
                        .withPorts(
                                port("client", Names.CLIENT_PORT),
                                port("peer", Names.PEER_PORT),
                                port("metrics", Names.METRICS_PORT))
                        .withResources(resources(spec.getResources()))
                        .withVolumeMounts(mounts(member, agent.isPresent()))
                        .withStartupProbe(startup(spec.getVersion()).orElse(null))
                        .withReadinessProbe(readiness())
                        .withLivenessProbe(liveness(spec.getVersion()))
                        .withSecurityContext(new SecurityContextBuilder()
                                .withAllowPrivilegeEscalation(false)
                                .withCapabilities(new Capabilities(null, List.of("ALL")))
                                .build())
                        .build())
                .withVolumes(volumes(member, agent.isPresent()))
                .addAllToVolumes(AgentContainers.volumes(member, existingCluster))
                .withAffinity(
                        spec.getAffinity() != null ? spec.getAffinity() : spreadAcrossNodes(spec.getClusterName()))
                .withTopologySpreadConstraints(spec.getTopologySpreadConstraints())
                .withImagePullSecrets(spec.getImagePullSecrets())
                .endSpec()
                .build();
    }

    /**
     * The TLS material the Pod starts with: fingerprints stamped on the EtcdMember for operator-issued TLS, or the
     * versions of bring-your-own Secrets; either way it is part of the revision, so a change rolls the member.
     */
    static Map<String, String> tlsMaterial(EtcdMember member) {
        Map<String, String> annotations = member.getMetadata().getAnnotations() == null
                ? Map.of()
                : member.getMetadata().getAnnotations();
        Map<String, String> out = new LinkedHashMap<>(MemberMaterial.fromAnnotations(annotations)
                .map(MemberMaterial::annotations)
                .orElse(Map.of()));
        Optional.ofNullable(annotations.get(TlsSecretVersions.ANNOTATION))
                .ifPresent(v -> out.put(TlsSecretVersions.ANNOTATION, v));
        return out;
    }

    /** Without an affinity of the user's own, members prefer nodes that run no other member of their cluster. */
    static Affinity spreadAcrossNodes(String cluster) {
        return new AffinityBuilder()
                .withNewPodAntiAffinity()
                .addNewPreferredDuringSchedulingIgnoredDuringExecution()
                .withWeight(100)
                .withNewPodAffinityTerm()
                .withTopologyKey("kubernetes.io/hostname")
                .withNewLabelSelector()
                .withMatchLabels(Labels.selector(cluster))
                .endLabelSelector()
                .endPodAffinityTerm()
                .endPreferredDuringSchedulingIgnoredDuringExecution()
                .endPodAntiAffinity()
                .build();
    }

    public static boolean memoryBacked(EtcdMemberSpec spec) {
        return SpecRules.memory(spec.getStorage());
    }

    /** An unset (all-empty) requirement falls back to modest requests; anything the user set is kept as is. */
    static ResourceRequirements resources(ResourceRequirements requested) {
        boolean empty = requested == null
                || (isEmpty(requested.getRequests())
                        && isEmpty(requested.getLimits())
                        && isEmpty(requested.getClaims()));
        if (!empty) {
            return requested;
        }
        return new ResourceRequirementsBuilder()
                .addToRequests("cpu", new Quantity("100m"))
                .addToRequests("memory", new Quantity("128Mi"))
                .build();
    }

    private static boolean isEmpty(Map<?, ?> map) {
        return map == null || map.isEmpty();
    }

    private static boolean isEmpty(List<?> list) {
        return list == null || list.isEmpty();
    }

    private static ContainerPort port(String name, int port) {
        return new ContainerPortBuilder()
                .withName(name)
                .withContainerPort(port)
                .withProtocol("TCP")
                .build();
    }

    /**
     * Ready when etcd's own /health says so (no leader or a CORRUPT alarm fail it). NOSPACE is excluded: such a member
     * still serves reads and deletes, and the operator needs its status to reclaim the space. Probed every second from
     * the start: each join waits for the previous member's readiness, and /health is one cheap read (docs/benchmarks.md).
     */
    private static Probe readiness() {
        return new ProbeBuilder()
                .withNewHttpGet()
                .withPath("/health?exclude=NOSPACE")
                .withPort(new IntOrString(Names.METRICS_PORT))
                .withScheme("HTTP")
                .endHttpGet()
                .withInitialDelaySeconds(0)
                .withPeriodSeconds(1)
                .withFailureThreshold(3)
                .withTimeoutSeconds(3)
                .build();
    }

    /** etcd serves /livez from 3.5.11 on: one local serializable read, blind to leader, quorum and alarms. */
    static boolean servesLivez(String version) {
        return VersionPolicy.EtcdVersion.parse(version)
                .map(v -> v.compareTo(new VersionPolicy.EtcdVersion(3, 5, 11)) >= 0)
                .orElse(false);
    }

    /**
     * Alive while etcd answers /livez on the plain-HTTP metrics listener (a kubelet cannot present client certificates).
     * 18 misses, 3 minutes: a defragment blocks local reads and the operator allows one 2 minutes. Older etcd has only
     * /health, which fails without a leader or on an alarm, so it keeps a TCP check of the peer port.
     */
    static Probe liveness(String version) {
        if (servesLivez(version)) {
            return new ProbeBuilder()
                    .withHttpGet(livez())
                    .withPeriodSeconds(10)
                    .withTimeoutSeconds(5)
                    .withFailureThreshold(18)
                    .build();
        }
        return new ProbeBuilder()
                .withNewTcpSocket()
                .withPort(new IntOrString(Names.PEER_PORT))
                .endTcpSocket()
                .withInitialDelaySeconds(15)
                .withPeriodSeconds(10)
                .withFailureThreshold(3)
                .withTimeoutSeconds(3)
                .build();
    }

    /**
     * Up to 10 minutes for the metrics listener to open (etcd opens it after loading its WAL and backend), probed every
     * second because readiness, which every join waits for, starts only once this passed. Only with /livez.
     */
    static Optional<Probe> startup(String version) {
        if (!servesLivez(version)) {
            return Optional.empty();
        }
        return Optional.of(new ProbeBuilder()
                .withHttpGet(livez())
                .withPeriodSeconds(1)
                .withTimeoutSeconds(1)
                .withFailureThreshold(600)
                .build());
    }

    private static HTTPGetAction livez() {
        return new HTTPGetActionBuilder()
                .withPath("/livez")
                .withPort(new IntOrString(Names.METRICS_PORT))
                .withScheme("HTTP")
                .build();
    }

    /** The guard's copy first (it must be in place before anything else runs), then a seed's restore. */
    private static List<Container> initContainers(
            EtcdMember member, boolean existingCluster, Optional<AgentImage> agent) {
        List<Container> init = new ArrayList<>();
        agent.ifPresent(a -> init.add(EtcdGuard.install(a)));
        init.addAll(AgentContainers.initContainers(member, existingCluster, agent));
        return init;
    }

    private static List<VolumeMount> mounts(EtcdMember member, boolean guarded) {
        MemberTlsView tls = MemberTlsView.of(member);
        List<VolumeMount> mounts = new ArrayList<>();
        mounts.add(new VolumeMountBuilder()
                .withName("data")
                .withMountPath(EtcdCommandLine.DATA_MOUNT)
                .build());
        if (guarded) {
            mounts.add(EtcdGuard.mount());
        }
        if (guarded && memoryBacked(member.getSpec())) {
            mounts.add(EtcdGuard.annotationsMount());
        }
        if (tls.clientTls()) {
            mounts.add(new VolumeMountBuilder()
                    .withName("tls-client")
                    .withMountPath(EtcdCommandLine.CLIENT_TLS_MOUNT)
                    .withReadOnly(true)
                    .build());
        }
        if (tls.peerSecret() != null) {
            mounts.add(new VolumeMountBuilder()
                    .withName("tls-peer")
                    .withMountPath(EtcdCommandLine.PEER_TLS_MOUNT)
                    .withReadOnly(true)
                    .build());
        }
        return mounts;
    }

    private static List<Volume> volumes(EtcdMember member, boolean guarded) {
        EtcdMemberSpec spec = member.getSpec();
        MemberTlsView tls = MemberTlsView.of(member);
        List<Volume> volumes = new ArrayList<>();
        if (memoryBacked(spec)) {
            volumes.add(new VolumeBuilder()
                    .withName("data")
                    .withNewEmptyDir()
                    .withMedium("Memory")
                    .withSizeLimit(spec.getStorage().getSize())
                    .endEmptyDir()
                    .build());
        } else {
            volumes.add(new VolumeBuilder()
                    .withName("data")
                    .withNewPersistentVolumeClaim()
                    .withClaimName(Names.dataPvc(member.getMetadata().getName()))
                    .endPersistentVolumeClaim()
                    .build());
        }
        if (guarded) {
            volumes.add(EtcdGuard.volume());
        }
        if (guarded && memoryBacked(spec)) {
            volumes.add(EtcdGuard.annotationsVolume());
        }
        if (tls.clientTls()) {
            volumes.add(secretVolume("tls-client", tls.clientSecret()));
        }
        if (tls.peerSecret() != null) {
            volumes.add(secretVolume("tls-peer", tls.peerSecret()));
        }
        return volumes;
    }

    private static Volume secretVolume(String name, String secret) {
        return new VolumeBuilder()
                .withName(name)
                .withNewSecret()
                .withSecretName(secret)
                .withDefaultMode(0440)
                .endSecret()
                .build();
    }
}
