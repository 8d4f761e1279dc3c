package io.etcdoperator.operator.snapshot;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdOperatorApi;
import io.etcdoperator.api.v1alpha2.EtcdSnapshot;
import io.etcdoperator.api.v1alpha2.SnapshotArtifact;
import io.etcdoperator.operator.resources.AgentContainers;
import io.etcdoperator.operator.resources.AgentImage;
import io.etcdoperator.operator.resources.Labels;
import io.etcdoperator.operator.resources.MemberPods;
import io.etcdoperator.operator.resources.MemberTlsView;
import io.etcdoperator.operator.resources.Names;
import io.etcdoperator.operator.resources.Owners;
import io.etcdoperator.operator.resources.SnapshotKeys;
import io.etcdoperator.operator.resources.SnapshotStorage;
import io.etcdoperator.snapshot.SnapshotStore;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KeyToPath;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The agent Jobs of one EtcdSnapshot: {@code save} and {@code verify} (owned by the snapshot) and, for retention,
 * {@code delete} (owned by the schedule, so that deleting the snapshot afterwards does not take the Job with it).
 * Secrets are mounted as files.
 */
public final class SnapshotJobs {

    public static final String CONTAINER = "snapshot-agent";
    /** On the Jobs and their Pods: the EtcdSnapshot they act for (shortened like the Job name when too long). */
    public static final String LABEL_SNAPSHOT = EtcdOperatorApi.RESERVED_PREFIX + "snapshot";

    static final String PVC_MOUNT = "/snapshot/data";
    static final String CA_MOUNT = "/etc/etcd/pki/ca";
    static final String CLIENT_MOUNT = "/etc/etcd/pki/client";
    static final String AUTH_MOUNT = "/etc/etcd/auth";
    /** An emptyDir: the save's copy for etcdutl snapshot status, or the verify's download and restore. */
    static final String SCRATCH_MOUNT = "/snapshot/scratch";
    /** Retries run the same idempotent agent (same uid), so a retry never writes a second object. */
    static final int BACKOFF_LIMIT = 2;

    static final long ACTIVE_DEADLINE_SECONDS = 1800;

    private SnapshotJobs() {}

    public static String saveJobName(EtcdSnapshot snapshot) {
        return Names.shorten(snapshot.getMetadata().getName(), "-snapshot");
    }

    public static String verifyJobName(EtcdSnapshot snapshot) {
        return Names.shorten(snapshot.getMetadata().getName(), "-verify");
    }

    public static String pruneJobName(EtcdSnapshot snapshot) {
        return Names.shorten(snapshot.getMetadata().getName(), "-prune");
    }

    /**
     * Streams a snapshot of {@code cluster} from one of {@code endpoints} (voters' client URLs) to the destination.
     *
     * @param authLatched whether to authenticate as root (only once the cluster latched status.authEnabled)
     */
    public static Job save(
            EtcdSnapshot snapshot, EtcdCluster cluster, List<URI> endpoints, boolean authLatched, String image) {
        return save(snapshot, cluster, endpoints, authLatched, new AgentImage(image, AgentImage.DEFAULT_TOOLS_DIR));
    }

    /** As above; a snapshot to verify also records its database's status, with the tool for the cluster's version. */
    public static Job save(
            EtcdSnapshot snapshot, EtcdCluster cluster, List<URI> endpoints, boolean authLatched, AgentImage agent) {
        SnapshotStorage store =
                SnapshotStorage.of(snapshot.getSpec().getDestination(), "destination", PVC_MOUNT, false);
        List<String> args = new ArrayList<>(List.of(
                "agent",
                "snapshot",
                "save",
                "--endpoints=" + endpoints.stream().map(URI::toString).collect(Collectors.joining(","))));
        List<Volume> volumes = new ArrayList<>();
        List<VolumeMount> mounts = new ArrayList<>();
        etcdAccess(cluster, authLatched, args, volumes, mounts);
        args.addAll(identity(snapshot, store));
        args.addAll(store.args());
        volumes.addAll(store.volumes());
        mounts.addAll(store.mounts());
        SnapshotKeys.forSave(snapshot.getSpec().getDestination(), "destination").addTo(args, volumes, mounts);
        if (verifies(snapshot)) {
            args.addAll(tool(cluster.getSpec().getVersion(), agent));
            args.add("--status-scratch-dir=" + SCRATCH_MOUNT);
            scratch(volumes, mounts);
        }
        return job(
                saveJobName(snapshot),
                snapshot,
                snapshot,
                agent.image(),
                args,
                volumes,
                mounts,
                AgentContainers.requests("192Mi", "512Mi"));
    }

    public static boolean verifies(EtcdSnapshot snapshot) {
        return Boolean.TRUE.equals(snapshot.getSpec().getVerify());
    }

    /**
     * Fetches the stored snapshot as a restore would (read-only, decrypting with every key of the Secret), restores it
     * into an emptyDir and compares it with {@code status.artifact}. No memory limit: etcdutl maps the whole database,
     * as in the restore init container.
     */
    public static Job verify(EtcdSnapshot snapshot, String etcdVersion, AgentImage agent) {
        SnapshotStorage store = SnapshotStorage.of(snapshot.getSpec().getDestination(), "destination", PVC_MOUNT, true);
        SnapshotArtifact artifact = snapshot.getStatus().getArtifact();
        List<String> args = new ArrayList<>(List.of(
                "agent",
                "snapshot",
                "verify",
                "--key="
                        + SnapshotStore.key(store.path(), snapshot.getMetadata().getName() + ".db")));
        args.addAll(store.args());
        List<Volume> volumes = new ArrayList<>(store.volumes());
        List<VolumeMount> mounts = new ArrayList<>(store.mounts());
        SnapshotKeys.forRestore(snapshot.getSpec().getDestination(), "destination")
                .addTo(args, volumes, mounts);
        if (artifact.getChecksum() != null) {
            args.add("--checksum=" + artifact.getChecksum());
        }
        if (artifact.getDbHash() != null && artifact.getDbRevision() != null && artifact.getDbTotalKeys() != null) {
            args.add("--expect-hash=" + artifact.getDbHash());
            args.add("--expect-revision=" + artifact.getDbRevision());
            args.add("--expect-total-keys=" + artifact.getDbTotalKeys());
        } else if (artifact.getRevision() != null) {
            args.add("--min-revision=" + artifact.getRevision());
        }
        args.addAll(tool(etcdVersion, agent));
        args.add("--scratch-dir=" + SCRATCH_MOUNT);
        scratch(volumes, mounts);
        return job(
                verifyJobName(snapshot),
                snapshot,
                snapshot,
                agent.image(),
                args,
                volumes,
                mounts,
                AgentContainers.requests("256Mi", null));
    }

    private static List<String> tool(String etcdVersion, AgentImage agent) {
        return List.of("--etcd-version=" + etcdVersion, "--etcd-tools-dir=" + agent.toolsDir());
    }

    private static void scratch(List<Volume> volumes, List<VolumeMount> mounts) {
        volumes.add(new VolumeBuilder()
                .withName("scratch")
                .withNewEmptyDir()
                .endEmptyDir()
                .build());
        mounts.add(new VolumeMountBuilder()
                .withName("scratch")
                .withMountPath(SCRATCH_MOUNT)
                .build());
    }

    /** Deletes the snapshot's stored object; the agent refuses anything another snapshot (uid) wrote. */
    public static Job prune(EtcdSnapshot snapshot, HasMetadata owner, String image) {
        SnapshotStorage store =
                SnapshotStorage.of(snapshot.getSpec().getDestination(), "destination", PVC_MOUNT, false);
        List<String> args = new ArrayList<>(List.of("agent", "snapshot", "delete"));
        args.addAll(identity(snapshot, store));
        args.addAll(store.args());
        return job(
                pruneJobName(snapshot),
                snapshot,
                owner,
                image,
                args,
                store.volumes(),
                store.mounts(),
                AgentContainers.requests("192Mi", "512Mi"));
    }

    private static List<String> identity(EtcdSnapshot snapshot, SnapshotStorage store) {
        return List.of(
                "--name=" + snapshot.getMetadata().getName(),
                "--uid=" + snapshot.getMetadata().getUid(),
                "--prefix=" + store.path());
    }

    /** CA from the server Secret, the operator's client pair for mTLS, root's password once auth latched. */
    private static void etcdAccess(
            EtcdCluster cluster,
            boolean authLatched,
            List<String> args,
            List<Volume> volumes,
            List<VolumeMount> mounts) {
        MemberTlsView tls = MemberTlsView.of(cluster);
        if (tls.clientTls()) {
            args.add("--ca-file=" + CA_MOUNT + "/ca.crt");
            volumes.add(secretVolume("etcd-ca", tls.clientSecret(), "ca.crt"));
            mounts.add(mount("etcd-ca", CA_MOUNT));
            if (tls.clientMtls()) {
                args.add("--cert-file=" + CLIENT_MOUNT + "/tls.crt");
                args.add("--key-file=" + CLIENT_MOUNT + "/tls.key");
                volumes.add(
                        secretVolume("etcd-client", MemberTlsView.operatorClientSecret(cluster), "tls.crt", "tls.key"));
                mounts.add(mount("etcd-client", CLIENT_MOUNT));
            }
        }
        var auth = cluster.getSpec().getAuth();
        if (authLatched && auth != null && auth.getRootCredentialsSecretRef() != null) {
            args.add("--user=root");
            args.add("--password-file=" + AUTH_MOUNT + "/password");
            volumes.add(
                    secretVolume("etcd-auth", auth.getRootCredentialsSecretRef().getName(), "password"));
            mounts.add(mount("etcd-auth", AUTH_MOUNT));
        }
    }

    private static Job job(
            String name,
            EtcdSnapshot snapshot,
            HasMetadata owner,
            String image,
            List<String> args,
            List<Volume> volumes,
            List<VolumeMount> mounts,
            ResourceRequirements resources) {
        Map<String, String> labels = labels(snapshot);
        return new JobBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(snapshot.getMetadata().getNamespace())
                .withLabels(labels)
                .withOwnerReferences(Owners.controller(owner))
                .endMetadata()
                .withNewSpec()
                .withBackoffLimit(BACKOFF_LIMIT)
                .withActiveDeadlineSeconds(ACTIVE_DEADLINE_SECONDS)
                .withNewTemplate()
                .withNewMetadata()
                .withLabels(labels)
                .endMetadata()
                .withNewSpec()
                .withRestartPolicy("Never")
                .withAutomountServiceAccountToken(false)
                .withEnableServiceLinks(false)
                .withNewSecurityContext()
                .withRunAsNonRoot(true)
                .withRunAsUser(MemberPods.NON_ROOT_ID)
                .withRunAsGroup(MemberPods.NON_ROOT_ID)
                .withFsGroup(MemberPods.NON_ROOT_ID)
                .withNewSeccompProfile()
                .withType("RuntimeDefault")
                .endSeccompProfile()
                .endSecurityContext()
                .withContainers(new ContainerBuilder()
                        .withName(CONTAINER)
                        .withImage(image)
                        .withArgs(args)
                        .withVolumeMounts(mounts)
                        // save and prune: the JVM sizes its heap from the 512 MiB limit, the 128 MiB SnapshotSizeIT
                        // measured with
                        .withResources(resources)
                        .withSecurityContext(AgentContainers.securityContext())
                        .withTerminationMessagePolicy("FallbackToLogsOnError")
                        .build())
                .withVolumes(volumes)
                .endSpec()
                .endTemplate()
                .endSpec()
                .build();
    }

    /**
     * Deliberately not the cluster label: the cluster's Services select Pods by it, and an agent Pod must never become
     * an etcd endpoint.
     */
    static Map<String, String> labels(EtcdSnapshot snapshot) {
        String cluster = snapshot.getSpec().getClusterRef() == null
                ? ""
                : snapshot.getSpec().getClusterRef().getName();
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put(Labels.NAME, "etcd-snapshot");
        labels.put(Labels.INSTANCE, Names.shorten(cluster, ""));
        labels.put(Labels.MANAGED_BY, Labels.MANAGER);
        labels.put(LABEL_SNAPSHOT, Names.shorten(snapshot.getMetadata().getName(), ""));
        return labels;
    }

    private static Volume secretVolume(String volume, String secret, String... keys) {
        List<KeyToPath> items =
                Arrays.stream(keys).map(k -> new KeyToPath(k, null, k)).toList();
        return new VolumeBuilder()
                .withName(volume)
                .withNewSecret()
                .withSecretName(secret)
                .withItems(items)
                .withDefaultMode(0440)
                .endSecret()
                .build();
    }

    private static VolumeMount mount(String volume, String path) {
        return new VolumeMountBuilder()
                .withName(volume)
                .withMountPath(path)
                .withReadOnly(true)
                .build();
    }
}
