package io.etcdoperator.operator.resources;

import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.api.v1alpha2.EtcdOperatorApi;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import java.util.ArrayList;
import java.util.List;

/**
 * The pre-start check of a member Pod: etcd-guard (operator/src/main/c), copied from the operator image by an init
 * container into an emptyDir, runs before every start of etcd and refuses a member that has run before but lost its
 * data directory, which etcd would otherwise start under its old member ID (docs/operations.md).
 */
public final class EtcdGuard {

    public static final String INIT_CONTAINER = "etcd-guard";
    static final String VOLUME = "etcd-guard";
    static final String MOUNT = "/opt/etcd-guard";
    static final String BINARY_IN_IMAGE = "/opt/etcd-operator/bin/etcd-guard";
    static final String ETCD = "/usr/local/bin/etcd";
    /** The words of the guard's termination message when it refused to start a member that lost its data. */
    static final String DATA_LOST = "its data is lost";
    /** The words of the guard's termination message when etcd exited 0 unasked: it applied its own removal. */
    static final String STOPPED_BY_ITSELF = "as it does once it applied its own removal from the cluster";
    /** The Pod's annotations (downward API), where a memory member's guard finds a request for --force-new-cluster. */
    static final String ANNOTATIONS_VOLUME = "etcd-pod-annotations";

    static final String ANNOTATIONS_MOUNT = "/etc/etcd-operator/pod";
    private static final String RECOVERY_FLAG = "--recovery-file=";
    /** A flag the guard adds beside --force-new-cluster when it restarts etcd that way. */
    private static final String FORCE_FLAG = "--force-flag=";

    private EtcdGuard() {}

    /** Copies the guard into the Pod's emptyDir: small, and run before every other init container. */
    static Container install(AgentImage agent) {
        return new ContainerBuilder()
                .withName(INIT_CONTAINER)
                .withImage(agent.image())
                .withCommand(BINARY_IN_IMAGE)
                .withArgs("install", MOUNT)
                .withVolumeMounts(mount())
                .withNewResources()
                .addToRequests("cpu", new Quantity("10m"))
                .addToRequests("memory", new Quantity("8Mi"))
                .addToLimits("memory", new Quantity("32Mi"))
                .endResources()
                .withSecurityContext(AgentContainers.securityContext())
                .withTerminationMessagePolicy("FallbackToLogsOnError")
                .build();
    }

    /**
     * The etcd container's command: the guard, then etcd (whose flags stay the container's args). A voter of a formed
     * cluster has run (a joiner is promoted only once it caught up; the seed formed the cluster), so its data must be
     * there even in a new Pod; within one Pod the guard remembers a WAL it has seen in its emptyDir.
     */
    static List<String> command(EtcdMember member, boolean existingCluster) {
        List<String> command = new ArrayList<>(List.of(MOUNT + "/etcd-guard", "--state-dir=" + MOUNT));
        if (existingCluster
                && member.getStatus() != null
                && Boolean.TRUE.equals(member.getStatus().getIsVoter())) {
            command.add("--expect-data");
        }
        if (MemberPods.memoryBacked(member.getSpec())) {
            command.add(RECOVERY_FLAG + ANNOTATIONS_MOUNT + "/annotations");
            EtcdCommandLine.catchUpFromSnapshot(member.getSpec().getVersion())
                    .forEach(f -> command.add(FORCE_FLAG + f));
        }
        command.addAll(List.of("--", ETCD));
        return command;
    }

    /**
     * A memory member cannot get a new Pod without losing its data, so its guard restarts etcd with
     * --force-new-cluster in place when the Pod's {@link EtcdOperatorApi#ANNOTATION_FORCE_NEW_CLUSTER} asks (once per
     * token); whether this Pod's guard does is read from its command.
     */
    public static boolean restartsInPlace(Pod pod) {
        return pod != null
                && pod.getSpec() != null
                && pod.getSpec().getContainers().stream()
                        .filter(c -> MemberPods.CONTAINER.equals(c.getName()) && c.getCommand() != null)
                        .anyMatch(c -> c.getCommand().stream().anyMatch(arg -> arg.startsWith(RECOVERY_FLAG)));
    }

    static VolumeMount annotationsMount() {
        return new VolumeMountBuilder()
                .withName(ANNOTATIONS_VOLUME)
                .withMountPath(ANNOTATIONS_MOUNT)
                .withReadOnly(true)
                .build();
    }

    static Volume annotationsVolume() {
        return new VolumeBuilder()
                .withName(ANNOTATIONS_VOLUME)
                .withNewDownwardAPI()
                .addNewItem()
                .withPath("annotations")
                .withNewFieldRef()
                .withFieldPath("metadata.annotations")
                .endFieldRef()
                .endItem()
                .endDownwardAPI()
                .build();
    }

    static VolumeMount mount() {
        return new VolumeMountBuilder().withName(VOLUME).withMountPath(MOUNT).build();
    }

    static Volume volume() {
        return new VolumeBuilder()
                .withName(VOLUME)
                .withNewEmptyDir()
                .withSizeLimit(new Quantity("16Mi"))
                .endEmptyDir()
                .build();
    }
}
