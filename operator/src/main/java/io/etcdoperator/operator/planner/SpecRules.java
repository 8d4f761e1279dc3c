package io.etcdoperator.operator.planner;

import io.etcdoperator.api.v1alpha2.AuthSpec;
import io.etcdoperator.api.v1alpha2.BootstrapSpec;
import io.etcdoperator.api.v1alpha2.ClientTls;
import io.etcdoperator.api.v1alpha2.EtcdClusterSpec;
import io.etcdoperator.api.v1alpha2.EtcdOperatorApi;
import io.etcdoperator.api.v1alpha2.EtcdOptions;
import io.etcdoperator.api.v1alpha2.ObservedClusterSpec;
import io.etcdoperator.api.v1alpha2.PeerTls;
import io.etcdoperator.api.v1alpha2.SnapshotLocation;
import io.etcdoperator.api.v1alpha2.StorageSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The CRD's validation rules, checked again by the operator: servers older than 1.25 drop CEL rules silently, so the
 * API server may have accepted a spec the operator must refuse. Transition rules compare with the latched target.
 */
public final class SpecRules {

    private static final String VERSION = "^\\d{1,9}\\.\\d{1,9}\\.\\d{1,9}$";
    /** One 64 MiB write-ahead-log segment, preallocated, plus as much again for the backend (docs/api.md). */
    static final BigDecimal MIN_VOLUME = BigDecimal.valueOf(128L * 1024 * 1024);
    /** The smallest quota seen to work end to end (DefragE2EIT fills and recovers one); smaller is untested. */
    static final long MIN_QUOTA = 8L * 1024 * 1024;

    private static final Duration MIN_CERTIFICATE = Duration.ofMinutes(5);

    private SpecRules() {}

    /** Rules that hold for any spec, on create and on update. */
    public static List<String> checkSpec(EtcdClusterSpec spec) {
        List<String> errors = new ArrayList<>();
        int replicas = replicas(spec);
        boolean memory = memory(spec.getStorage());
        if (spec.getVersion() == null || !spec.getVersion().matches(VERSION)) {
            errors.add("spec.version must look like 3.5.16, each number at most 9 digits, got '" + spec.getVersion()
                    + "'");
        }
        if (replicas < 0) {
            errors.add("spec.replicas must not be negative");
        }
        if (replicas > EtcdOperatorApi.MAX_REPLICAS) {
            errors.add("spec.replicas must be at most " + EtcdOperatorApi.MAX_REPLICAS + ", got " + replicas
                    + ": every write waits for a majority of the voters");
        }
        if (spec.getProgressDeadlineSeconds() != null && spec.getProgressDeadlineSeconds() < 1) {
            errors.add("spec.progressDeadlineSeconds must be at least 1");
        }
        if (replicas == 0 && memory) {
            errors.add("spec.replicas cannot be 0 with storage.medium Memory: tmpfs data would not survive the pause");
        }
        checkSize(size(spec.getStorage()), memory, errors);
        checkQuota(spec, errors);
        checkCompaction(spec.getOptions(), errors);
        if (spec.getStorage() != null
                && spec.getStorage().getMedium() != null
                && !spec.getStorage().getMedium().isEmpty()
                && !memory) {
            errors.add("spec.storage.medium must be \"\" or \"Memory\"");
        }
        checkTls(spec, errors);
        checkAuth(spec, errors);
        checkBootstrap(spec.getBootstrap(), memory, errors);
        MetadataRules.check(spec.getAdditionalMetadata(), errors);
        ResourceRules.check("spec.resources", spec.getResources(), errors);
        return errors;
    }

    /** Rules about change: the spec against the target latched earlier. */
    public static List<String> checkTransition(EtcdClusterSpec spec, ObservedClusterSpec latched) {
        List<String> errors = new ArrayList<>();
        Quantity oldSize = size(latched.getStorage());
        Quantity newSize = size(spec.getStorage());
        if (bytes(oldSize).isPresent()
                && bytes(newSize).isPresent()
                && bytes(newSize).get().compareTo(bytes(oldSize).get()) < 0) {
            errors.add("spec.storage.size cannot shrink (" + oldSize + " -> " + newSize + ")");
        }
        if (memory(spec.getStorage()) != memory(latched.getStorage())) {
            errors.add("spec.storage.medium is immutable");
        }
        if (!Objects.equals(storageClass(spec.getStorage()), storageClass(latched.getStorage()))) {
            errors.add("spec.storage.storageClassName is immutable");
        }
        if (!Objects.equals(spec.getTls(), latched.getTls())) {
            errors.add("spec.tls is immutable: TLS cannot be added, removed or changed on an existing cluster");
        }
        if (!Objects.equals(spec.getAuth(), latched.getAuth())) {
            errors.add("spec.auth is immutable: authentication cannot be toggled or repointed on an existing cluster");
        }
        if (!Objects.equals(spec.getBootstrap(), latched.getBootstrap())) {
            errors.add("spec.bootstrap is immutable: it is read only when the cluster is first formed");
        }
        return errors;
    }

    /** The member count asked for: absent means three, as in the CRD's default. */
    public static int replicas(EtcdClusterSpec spec) {
        return orDefault(spec.getReplicas());
    }

    /** The member count latched as the target. */
    public static int replicas(ObservedClusterSpec latched) {
        return orDefault(latched.getReplicas());
    }

    private static int orDefault(Integer replicas) {
        return replicas == null ? 3 : replicas;
    }

    public static boolean memory(StorageSpec storage) {
        return storage != null && StorageSpec.MEDIUM_MEMORY.equals(storage.getMedium());
    }

    static Quantity size(StorageSpec storage) {
        return storage == null ? null : storage.getSize();
    }

    /** The quantity's amount, or empty when it is absent or not a quantity (then it must not throw). */
    static Optional<BigDecimal> bytes(Quantity q) {
        try {
            return q == null ? Optional.empty() : Optional.of(q.getNumericalAmount());
        } catch (IllegalArgumentException | ArithmeticException e) {
            return Optional.empty();
        }
    }

    /** Equal amounts (1Gi and 1024Mi); quantities that cannot be read are compared as written. */
    static boolean sameAmount(Quantity a, Quantity b) {
        Optional<BigDecimal> x = bytes(a);
        Optional<BigDecimal> y = bytes(b);
        return x.isPresent() && y.isPresent() ? x.get().compareTo(y.get()) == 0 : Objects.equals(a, b);
    }

    private static boolean positive(Quantity q) {
        return bytes(q).map(b -> b.signum() > 0).orElse(false);
    }

    /** Memory or disk, etcd needs room for a preallocated WAL segment and the backend beside it. */
    private static void checkSize(Quantity size, boolean memory, List<String> errors) {
        if (size == null) {
            return;
        }
        Optional<BigDecimal> amount = bytes(size);
        if (amount.isEmpty()) {
            errors.add("spec.storage.size '" + size + "' is not a quantity");
        } else if (memory && amount.get().signum() <= 0) {
            errors.add("spec.storage.size must be greater than 0 with storage.medium Memory");
        } else if (memory && amount.get().compareTo(MIN_VOLUME) < 0) {
            errors.add("spec.storage.size must be at least 128Mi with storage.medium Memory: etcd preallocates 64 MiB "
                    + "write-ahead-log segments on tmpfs, got " + size);
        } else if (amount.get().compareTo(MIN_VOLUME) < 0) {
            errors.add(
                    "spec.storage.size must be at least 128Mi: etcd preallocates 64 MiB write-ahead-log segments and "
                            + "keeps its backend beside them, got " + size);
        }
    }

    private static String storageClass(StorageSpec storage) {
        return storage == null ? null : storage.getStorageClassName();
    }

    /** The space alarm must fire before the volume is full: a quota larger than the volume never would. */
    private static void checkQuota(EtcdClusterSpec spec, List<String> errors) {
        Long quota = spec.getOptions() == null ? null : spec.getOptions().getQuotaBackendBytes();
        Quantity volume = size(spec.getStorage());
        if (quota != null && quota > 0 && quota < MIN_QUOTA) {
            errors.add("spec.options.quotaBackendBytes must be 0 (etcd's default) or at least 8Mi (" + MIN_QUOTA
                    + "), got " + quota + ": a smaller backend leaves etcd's own records little room and is untested");
        }
        if (quota != null
                && positive(volume)
                && BigDecimal.valueOf(quota).compareTo(bytes(volume).orElseThrow()) > 0) {
            errors.add("spec.options.quotaBackendBytes (" + quota + ") must not exceed spec.storage.size (" + volume
                    + "): etcd would fill the volume before its space alarm fires");
        }
    }

    /** etcd reads a duration in revision mode as that many nanoseconds of revisions: compaction silently never runs. */
    private static void checkCompaction(EtcdOptions options, List<String> errors) {
        if (options != null
                && EtcdOptions.COMPACTION_REVISION.equals(options.getAutoCompactionMode())
                && options.getAutoCompactionRetention() != null
                && !options.getAutoCompactionRetention().matches("\\d+")) {
            errors.add("spec.options.autoCompactionRetention must be a number of revisions with autoCompactionMode "
                    + "revision, got '" + options.getAutoCompactionRetention()
                    + "': etcd reads a duration there as that many "
                    + "nanoseconds' worth of revisions (1h keeps 3600000000000) and would never compact");
        }
    }

    private static void checkTls(EtcdClusterSpec spec, List<String> errors) {
        if (spec.getTls() == null) {
            return;
        }
        var issued = spec.getTls().getOperatorIssued();
        if (issued != null && issued.getCertificateDuration() != null) {
            Duration d;
            try {
                d = GoDuration.parse(issued.getCertificateDuration(), null);
            } catch (IllegalArgumentException e) {
                errors.add("spec.tls.operatorIssued.certificateDuration: " + e.getMessage());
                d = null;
            }
            if (d != null && d.compareTo(MIN_CERTIFICATE) < 0) {
                errors.add(
                        "spec.tls.operatorIssued.certificateDuration must be at least 5m: a shorter leaf would be due "
                                + "for renewal again before a roll of the cluster finishes, got "
                                + issued.getCertificateDuration());
            }
        }
        ClientTls client = spec.getTls().getClient();
        if (spec.getTls().getOperatorIssued() != null
                && (client != null || spec.getTls().getPeer() != null)) {
            errors.add("spec.tls.operatorIssued cannot be combined with tls.client or tls.peer: "
                    + "the operator issues the certificates of both planes itself");
        }
        if (client != null) {
            if ((client.getServerSecretRef() != null) == (client.getCertManager() != null)) {
                errors.add("spec.tls.client needs exactly one of serverSecretRef or certManager");
            }
            if (client.getOperatorClientSecretRef() != null && client.getCertManager() != null) {
                errors.add("spec.tls.client.operatorClientSecretRef cannot be combined with certManager");
            }
        }
        PeerTls peer = spec.getTls().getPeer();
        if (peer != null && (peer.getSecretRef() != null) == (peer.getCertManager() != null)) {
            errors.add("spec.tls.peer needs exactly one of secretRef or certManager");
        }
    }

    private static void checkAuth(EtcdClusterSpec spec, List<String> errors) {
        AuthSpec auth = spec.getAuth();
        if (auth == null || !Boolean.TRUE.equals(auth.getEnabled())) {
            return;
        }
        if (spec.getTls() == null
                || (spec.getTls().getClient() == null && spec.getTls().getOperatorIssued() == null)) {
            errors.add("spec.auth.enabled requires spec.tls.client (or spec.tls.operatorIssued), so credentials never "
                    + "travel in plaintext");
        }
        if (auth.getRootCredentialsSecretRef() == null) {
            errors.add("spec.auth.enabled requires spec.auth.rootCredentialsSecretRef");
        }
    }

    /** The CEL rules of ExistingCluster and BootstrapSpec, for servers that drop them. */
    private static void checkExisting(BootstrapSpec bootstrap, List<String> errors) {
        if (bootstrap.getRestore() != null) {
            errors.add("spec.bootstrap takes restore or existing, not both");
        }
        List<String> urls = bootstrap.getExisting().getClientUrls();
        if (urls == null
                || urls.isEmpty()
                || urls.stream().anyMatch(u -> u == null || !(u.startsWith("http://") || u.startsWith("https://")))) {
            errors.add("spec.bootstrap.existing.clientUrls must list at least one http:// or https:// client URL");
        }
    }

    private static void checkBootstrap(BootstrapSpec bootstrap, boolean memory, List<String> errors) {
        if (bootstrap != null && bootstrap.getExisting() != null) {
            checkExisting(bootstrap, errors);
        }
        if (bootstrap == null || bootstrap.getRestore() == null) {
            return;
        }
        if (memory) {
            errors.add("spec.bootstrap.restore cannot be used with storage.medium Memory");
        }
        SnapshotLocation source = bootstrap.getRestore().getSource();
        if (source == null || (source.getS3() != null) == (source.getPvc() != null)) {
            errors.add("spec.bootstrap.restore.source needs exactly one of s3 or pvc");
            return;
        }
        if (source.getS3() != null
                && (source.getS3().getKey() == null || source.getS3().getKey().isEmpty())) {
            errors.add("spec.bootstrap.restore.source.s3.key must name the snapshot object");
        }
        if (source.getPvc() != null
                && (source.getPvc().getSubPath() == null
                        || source.getPvc().getSubPath().isEmpty())) {
            errors.add("spec.bootstrap.restore.source.pvc.subPath must name the snapshot file");
        }
    }
}
