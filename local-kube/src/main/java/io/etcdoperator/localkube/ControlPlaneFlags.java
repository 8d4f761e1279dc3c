package io.etcdoperator.localkube;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Command lines of the three control-plane processes, all bound to 127.0.0.1. */
final class ControlPlaneFlags {

    /**
     * Pods get a projected service-account token, as on Kubernetes 1.21+, instead of a token Secret: without the
     * token controller, 1.20 would otherwise refuse every Pod that mounts the default service account.
     */
    private static final String BOUND_TOKENS = "--feature-gates=BoundServiceAccountTokenVolume=true";

    /** How long a node may miss heartbeats before it is NotReady; see {@link #controllerManager}. */
    static final Duration NODE_MONITOR_GRACE = Duration.ofSeconds(20);

    private ControlPlaneFlags() {}

    static List<String> etcd(Path binary, Path workDir, URI clientUrl, int peerPort) {
        String peerUrl = "http://127.0.0.1:" + peerPort;
        return List.of(
                binary.toString(),
                "--name=store",
                "--data-dir=" + workDir.resolve("etcd"),
                "--listen-client-urls=" + clientUrl,
                "--advertise-client-urls=" + clientUrl,
                "--listen-peer-urls=" + peerUrl,
                "--initial-advertise-peer-urls=" + peerUrl,
                "--initial-cluster=store=" + peerUrl,
                "--initial-cluster-state=new",
                "--logger=zap",
                "--log-outputs=stderr");
    }

    /** The endpoint reconciler is off because Endpoints may not hold the loopback address the server advertises. */
    /**
     * The aggregator's front proxy: requests that kube-apiserver forwards to an extension API server (see
     * {@link ApiExtensionsServer#startBehind}) carry this client certificate and the caller in X-Remote-* headers.
     */
    record FrontProxy(Path clientCa, LocalCa.KeyFiles client) {

        static final String CLIENT_NAME = "front-proxy-client";

        static FrontProxy generate(Path dir) {
            LocalCa ca = LocalCa.create("front-proxy", dir);
            return new FrontProxy(ca.file(), ca.issueClient(CLIENT_NAME, null, dir, CLIENT_NAME));
        }

        List<String> apiServerFlags() {
            return List.of(
                    "--requestheader-client-ca-file=" + clientCa,
                    "--requestheader-allowed-names=" + CLIENT_NAME,
                    "--requestheader-username-headers=X-Remote-User",
                    "--requestheader-group-headers=X-Remote-Group",
                    "--requestheader-extra-headers-prefix=X-Remote-Extra-",
                    "--proxy-client-cert-file=" + client.certificate(),
                    "--proxy-client-key-file=" + client.key());
        }
    }

    static List<String> audit(Path policy, Path log) {
        return List.of(
                "--audit-policy-file=" + policy,
                "--audit-log-path=" + log,
                "--audit-log-format=json",
                "--audit-log-maxbackup=1",
                "--audit-log-maxsize=200");
    }

    static List<String> apiServer(
            Path binary,
            Path certDir,
            URI etcd,
            int port,
            Path tokenFile,
            ServiceAccountKeys keys,
            FrontProxy frontProxy) {
        List<String> flags = new ArrayList<>(List.of(
                binary.toString(),
                "--etcd-servers=" + etcd,
                "--bind-address=127.0.0.1",
                "--advertise-address=127.0.0.1",
                "--secure-port=" + port,
                "--cert-dir=" + certDir,
                "--token-auth-file=" + tokenFile,
                "--authorization-mode=RBAC",
                "--service-account-issuer=https://kubernetes.default.svc",
                "--service-account-key-file=" + keys.publicKey(),
                "--service-account-signing-key-file=" + keys.privateKey(),
                "--service-cluster-ip-range=10.96.0.0/16",
                "--allow-privileged=true",
                "--endpoint-reconciler-type=none",
                // simulated kubelets all listen on 127.0.0.1, each on its own port (their Hostname does not resolve)
                "--kubelet-preferred-address-types=InternalIP",
                BOUND_TOKENS,
                "--profiling=false"));
        flags.addAll(frontProxy.apiServerFlags());
        return List.copyOf(flags);
    }

    /**
     * All default controllers but the token controller (nothing here mounts service-account secrets). The insecure
     * port 10252 is disabled so that several control planes can run on one machine. Node monitoring is twice as
     * quick as the default (20 s grace, 4 of the nodes' 5 s heartbeats, as 40 s is 4 of a kubelet's 10 s): tests
     * of node loss wait for it.
     */
    static List<String> controllerManager(
            Path binary, Path certDir, Path kubeconfig, int port, ServiceAccountKeys keys, Path rootCa) {
        return List.of(
                binary.toString(),
                "--kubeconfig=" + kubeconfig,
                "--authentication-kubeconfig=" + kubeconfig,
                "--authorization-kubeconfig=" + kubeconfig,
                "--bind-address=127.0.0.1",
                "--secure-port=" + port,
                "--port=0",
                "--cert-dir=" + certDir,
                "--service-account-private-key-file=" + keys.privateKey(),
                "--root-ca-file=" + rootCa,
                "--use-service-account-credentials=false",
                "--leader-elect=false",
                "--authentication-skip-lookup=true",
                "--controllers=*,-serviceaccount-token",
                "--node-monitor-grace-period=" + NODE_MONITOR_GRACE.toSeconds() + "s",
                "--node-monitor-period=2s",
                BOUND_TOKENS,
                "--profiling=false");
    }
}
