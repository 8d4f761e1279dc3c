package io.etcdoperator.operator.resources;

import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.api.v1alpha2.EtcdMemberSpec;
import io.etcdoperator.api.v1alpha2.RestoreSpec;
import io.fabric8.kubernetes.api.model.Capabilities;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.SecurityContextBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Containers that run the operator image as the snapshot agent; here, the restore init container of a seed Pod. */
public final class AgentContainers {

    public static final String RESTORE = "restore";
    static final String RESTORE_SOURCE_MOUNT = "/restore/src";
    static final String RESTORE_VOLUMES = "restore";

    private AgentContainers() {}

    /**
     * Only the seed, and only while it forms a new cluster: a seed Pod recreated later must never seed a second
     * cluster from the snapshot (the agent would skip a data dir holding a member anyway, but an emptied one not).
     */
    public static boolean restores(EtcdMember member, boolean existingCluster) {
        EtcdMemberSpec spec = member.getSpec();
        return Boolean.TRUE.equals(spec.getBootstrap()) && spec.getRestore() != null && !existingCluster;
    }

    /**
     * The init containers of a member Pod: empty unless it {@link #restores}. A restoring seed without an agent image
     * is refused with an exception rather than started empty, which would silently form a cluster without the data.
     */
    public static List<Container> initContainers(
            EtcdMember member, boolean existingCluster, Optional<AgentImage> agent) {
        if (!restores(member, existingCluster)) {
            return List.of();
        }
        AgentImage image = agent.orElseThrow(
                () -> new IllegalStateException(
                        "member " + member.getMetadata().getName()
                                + " restores a snapshot, which needs the operator image (--operator-image); not creating its Pod"));
        return List.of(restore(member, image));
    }

    /** The volumes the init containers add to the Pod (the restore source and its encryption keys). */
    public static List<Volume> volumes(EtcdMember member, boolean existingCluster) {
        if (!restores(member, existingCluster)) {
            return List.of();
        }
        RestoreSpec restore = member.getSpec().getRestore();
        return SnapshotKeys.join(source(restore).volumes(), keys(restore).volumes());
    }

    static Container restore(EtcdMember member, AgentImage agent) {
        EtcdMemberSpec spec = member.getSpec();
        SnapshotStorage source = source(spec.getRestore());
        List<String> args = new ArrayList<>(List.of("agent", "snapshot", "restore", "--key=" + source.path()));
        args.addAll(source.args());
        args.add("--data-dir=" + EtcdCommandLine.dataDir(member));
        args.add("--member-name=" + member.getMetadata().getName());
        args.add("--initial-cluster=" + spec.getInitialCluster());
        args.add("--initial-cluster-token=" + spec.getClusterToken());
        args.add("--initial-advertise-peer-urls=" + Names.peerUrl(member));
        args.add("--etcd-version=" + spec.getVersion());
        args.add("--etcd-tools-dir=" + agent.toolsDir());
        List<VolumeMount> mounts = new ArrayList<>();
        mounts.add(new VolumeMountBuilder()
                .withName("data")
                .withMountPath(EtcdCommandLine.DATA_MOUNT)
                .build());
        mounts.addAll(source.mounts());
        SnapshotKeys keys = keys(spec.getRestore());
        args.addAll(keys.args());
        mounts.addAll(keys.mounts());
        return new ContainerBuilder()
                .withName(RESTORE)
                .withImage(agent.image())
                .withArgs(args)
                .withVolumeMounts(mounts)
                // no memory limit: etcdctl/etcdutl run inside this container and map the whole database
                .withResources(requests("128Mi", null))
                .withSecurityContext(securityContext())
                .withTerminationMessagePolicy("FallbackToLogsOnError")
                .build();
    }

    /** Restricted PodSecurity: no privilege escalation, no capabilities (the Pod sets non-root and seccomp). */
    public static SecurityContext securityContext() {
        return new SecurityContextBuilder()
                .withAllowPrivilegeEscalation(false)
                .withCapabilities(new Capabilities(null, List.of("ALL")))
                .build();
    }

    /** A JVM agent: a small CPU request and the memory it measured (about 150 MiB peak with a 128 MiB heap). */
    public static ResourceRequirements requests(String memory, String memoryLimit) {
        var builder = new ResourceRequirementsBuilder()
                .addToRequests("cpu", new Quantity("50m"))
                .addToRequests("memory", new Quantity(memory));
        if (memoryLimit != null) {
            builder.addToLimits("memory", new Quantity(memoryLimit));
        }
        return builder.build();
    }

    private static SnapshotKeys keys(RestoreSpec restore) {
        return SnapshotKeys.forRestore(restore.getSource(), RESTORE_VOLUMES);
    }

    private static SnapshotStorage source(RestoreSpec restore) {
        return SnapshotStorage.of(restore.getSource(), RESTORE_VOLUMES, RESTORE_SOURCE_MOUNT, true);
    }
}
