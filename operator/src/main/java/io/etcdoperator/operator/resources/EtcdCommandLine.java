package io.etcdoperator.operator.resources;

import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.api.v1alpha2.EtcdOperatorApi;
import io.etcdoperator.api.v1alpha2.EtcdOptions;
import io.etcdoperator.operator.planner.VersionPolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The etcd flags for one member: identity, URLs, initial cluster, typed options, then TLS. */
public final class EtcdCommandLine {

    public static final String DATA_MOUNT = "/var/lib/etcd";
    public static final String CLIENT_TLS_MOUNT = "/etc/etcd/tls/client";
    public static final String PEER_TLS_MOUNT = "/etc/etcd/tls/peer";
    private static final String SUBPATH = "[a-zA-Z0-9][a-zA-Z0-9._-]*";
    private static final String FORCE_NEW_CLUSTER = "--force-new-cluster";

    private EtcdCommandLine() {}

    /** @param existingCluster whether to join an existing cluster ("existing") rather than form a new one ("new") */
    public static List<String> args(EtcdMember member, boolean existingCluster) {
        String name = member.getMetadata().getName();
        MemberTlsView tls = MemberTlsView.of(member);
        String cs = tls.clientTls() ? "https" : "http";
        String ps = tls.peerTls() ? "https" : "http";
        List<String> args = new ArrayList<>();
        args.add("--name=" + name);
        args.add("--data-dir=" + dataDir(member));
        args.add("--listen-peer-urls=" + ps + "://0.0.0.0:" + Names.PEER_PORT);
        args.add("--listen-client-urls=" + cs + "://0.0.0.0:" + Names.CLIENT_PORT);
        args.add("--advertise-client-urls=" + Names.clientUrl(member));
        args.add("--initial-advertise-peer-urls=" + Names.peerUrl(member));
        args.add("--initial-cluster=" + member.getSpec().getInitialCluster());
        args.add("--initial-cluster-token=" + member.getSpec().getClusterToken());
        args.add("--initial-cluster-state=" + (existingCluster ? "existing" : "new"));
        args.add("--listen-metrics-urls=http://0.0.0.0:" + Names.METRICS_PORT);
        args.addAll(versioned(member.getSpec().getVersion()));
        options(member.getSpec().getOptions(), args);
        BackendQuota.flag(member.getSpec().getOptions(), member.getSpec().getStorage())
                .ifPresent(q -> args.add("--quota-backend-bytes=" + q));
        Map<String, String> annotations = member.getMetadata().getAnnotations();
        boolean inPlace =
                MemberPods.memoryBacked(member.getSpec()); // etcd-guard restarts it (EtcdGuard#restartsInPlace)
        if (!inPlace && annotations != null && annotations.containsKey(EtcdOperatorApi.ANNOTATION_FORCE_NEW_CLUSTER)) {
            args.addAll(forceNewCluster(member.getSpec().getVersion())); // one start only: removed once it runs alone
        }
        tlsFlags(tls, args);
        return args;
    }

    /**
     * Flags whose spelling depends on the member's etcd minor: 3.6 dropped the experimental- prefix and turned some into
     * feature gates, 3.7 refuses the old names (docs/operations.md#flags-per-version). Progress notifications every 5 s
     * serve the kube-apiserver's watch cache; the initial corruption check keeps a diverged member from serving.
     */
    static List<String> versioned(String version) {
        boolean renamed = VersionPolicy.EtcdVersion.parse(version)
                .map(v -> v.compareTo(new VersionPolicy.EtcdVersion(3, 6, 0)) >= 0)
                .orElse(false);
        if (renamed) {
            return List.of("--watch-progress-notify-interval=5s", "--feature-gates=InitialCorruptCheck=true");
        }
        return List.of("--experimental-watch-progress-notify-interval=5s", "--experimental-initial-corrupt-check=true");
    }

    /** --force-new-cluster and the flags that go with it ({@link #catchUpFromSnapshot}). */
    static List<String> forceNewCluster(String version) {
        List<String> flags = new ArrayList<>(List.of(FORCE_NEW_CLUSTER));
        flags.addAll(catchUpFromSnapshot(version));
        return flags;
    }

    /**
     * The survivor of a forced restart snapshots at once and keeps one log entry, so a joiner copies its whole
     * database rather than replay a log that lost entries it had applied (after a SIGKILL;
     * docs/operations.md#quorum-loss). etcd before 3.5.14 has no such flag: none then.
     */
    static List<String> catchUpFromSnapshot(String version) {
        Optional<VersionPolicy.EtcdVersion> v = VersionPolicy.EtcdVersion.parse(version);
        if (v.filter(at -> at.compareTo(new VersionPolicy.EtcdVersion(3, 6, 0)) >= 0)
                .isPresent()) {
            return List.of("--snapshot-count=1", "--snapshot-catchup-entries=1");
        }
        if (v.filter(at -> at.compareTo(new VersionPolicy.EtcdVersion(3, 5, 14)) >= 0)
                .isPresent()) {
            return List.of("--snapshot-count=1", "--experimental-snapshot-catchup-entries=1");
        }
        return List.of();
    }

    /** The volume root, or a validated sub-directory for adopted members; anything suspicious falls back to the root. */
    public static String dataDir(EtcdMember member) {
        Map<String, String> annotations = member.getMetadata().getAnnotations();
        String sub = annotations == null ? null : annotations.get(EtcdOperatorApi.ANNOTATION_DATA_DIR_SUBPATH);
        if (sub != null && sub.matches(SUBPATH) && !sub.contains("..")) {
            return DATA_MOUNT + "/" + sub;
        }
        return DATA_MOUNT;
    }

    private static void options(EtcdOptions options, List<String> args) {
        if (options == null) {
            return;
        }
        if (options.getAutoCompactionMode() != null) {
            args.add("--auto-compaction-mode=" + options.getAutoCompactionMode());
        }
        if (options.getAutoCompactionRetention() != null) {
            args.add("--auto-compaction-retention=" + options.getAutoCompactionRetention());
        }
        if (options.getSnapshotCount() != null) {
            args.add("--snapshot-count=" + options.getSnapshotCount());
        }
    }

    private static void tlsFlags(MemberTlsView tls, List<String> args) {
        if (tls.clientTls()) {
            args.add("--cert-file=" + CLIENT_TLS_MOUNT + "/tls.crt");
            args.add("--key-file=" + CLIENT_TLS_MOUNT + "/tls.key");
            if (tls.clientMtls()) {
                args.add("--client-cert-auth=true");
                args.add("--trusted-ca-file=" + CLIENT_TLS_MOUNT + "/ca.crt");
            }
        }
        if (tls.peerSecret() != null) {
            args.add("--peer-cert-file=" + PEER_TLS_MOUNT + "/tls.crt");
            args.add("--peer-key-file=" + PEER_TLS_MOUNT + "/tls.key");
            args.add("--peer-trusted-ca-file=" + PEER_TLS_MOUNT + "/ca.crt");
            args.add("--peer-client-cert-auth=true");
        } else if (tls.peerAutoTls()) {
            args.add("--peer-auto-tls");
        }
    }
}
