package io.etcdoperator.kubectl;

import io.etcdoperator.etcd.EtcdAdmin;
import io.etcdoperator.etcd.EtcdConnection;
import io.etcdoperator.etcd.JetcdEtcdAdmin;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.LocalPortForward;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One member reached the way a person's kubectl reaches it: a port forward through the API server to the Pod's
 * client port, TLS and credentials taken from the Pod and its cluster. Forwards to sibling Pods are opened on
 * demand (endpoints, a removal routed around the member itself) and all are closed together.
 */
final class MemberSession implements AutoCloseable {

    static final int CLIENT_PORT = 2379;

    private final KubernetesClient kube;
    private final Pod pod;
    private final String scheme;
    private final List<LocalPortForward> forwards = new ArrayList<>();
    private final EtcdConnection connection;
    private final EtcdAdmin etcd;
    private final URI endpoint;

    private MemberSession(
            KubernetesClient kube,
            Pod pod,
            Optional<EtcdConnection.ClientTls> tls,
            Optional<EtcdConnection.Credentials> credentials,
            Duration timeout) {
        this.kube = kube;
        this.pod = pod;
        this.scheme = tls.isPresent() ? "https" : "http";
        this.endpoint = forward(pod.getMetadata().getName());
        this.connection = new EtcdConnection(List.of(endpoint), tls, credentials, timeout);
        try {
            this.etcd = JetcdEtcdAdmin.open(connection);
        } catch (RuntimeException e) {
            closeForwards();
            throw e;
        }
    }

    static MemberSession open(
            KubernetesClient kube, String namespace, String podName, String credentialsSecret, Duration timeout) {
        Pod pod = pod(kube, namespace, podName);
        Optional<MemberTls> tls = MemberTls.of(pod);
        Optional<EtcdConnection.ClientTls> material = tls.map(t -> t.load(secret(kube, namespace, t.secretName())));
        Optional<EtcdConnection.Credentials> credentials = RootCredentials.resolve(kube, pod, credentialsSecret);
        return new MemberSession(kube, pod, material, credentials, timeout);
    }

    EtcdAdmin etcd() {
        return etcd;
    }

    /** The same TLS, credentials and timeout, to another forwarded endpoint. */
    EtcdConnection connectionTo(URI forwarded) {
        return new EtcdConnection(List.of(forwarded), connection.tls(), connection.credentials(), connection.timeout());
    }

    /** The forwarded client URL of the {@code -p} Pod. */
    URI endpoint() {
        return endpoint;
    }

    String podName() {
        return pod.getMetadata().getName();
    }

    /** A forwarded client URL for a sibling Pod (members are named like their Pods); empty if it has no Pod. */
    Optional<URI> sibling(String memberName) {
        if (memberName.equals(podName())) {
            return Optional.of(endpoint);
        }
        Pod sibling = kube.pods()
                .inNamespace(pod.getMetadata().getNamespace())
                .withName(memberName)
                .get();
        if (sibling == null
                || sibling.getStatus() == null
                || !"Running".equals(sibling.getStatus().getPhase())) {
            return Optional.empty();
        }
        return Optional.of(forward(memberName));
    }

    private URI forward(String podName) {
        LocalPortForward forward;
        try {
            // loopback only: nobody else on the laptop's network may use the forwarded member port
            forward = kube.pods()
                    .inNamespace(pod.getMetadata().getNamespace())
                    .withName(podName)
                    .portForward(CLIENT_PORT, InetAddress.getLoopbackAddress(), 0);
        } catch (KubernetesClientException e) {
            throw new PluginException("cannot port-forward to pod " + podName + ": " + e.getMessage(), e);
        }
        forwards.add(forward);
        String loopback = InetAddress.getLoopbackAddress().getHostAddress();
        return URI.create(scheme + "://" + loopback + ":" + forward.getLocalPort());
    }

    private static Pod pod(KubernetesClient kube, String namespace, String name) {
        Pod pod;
        try {
            pod = kube.pods().inNamespace(namespace).withName(name).get();
        } catch (KubernetesClientException e) {
            throw new PluginException("cannot read pod " + namespace + "/" + name + ": " + reason(e), e);
        }
        if (pod == null) {
            throw new PluginException("pod " + namespace + "/" + name + " not found");
        }
        if (pod.getStatus() == null || !"Running".equals(pod.getStatus().getPhase())) {
            throw new PluginException("pod " + namespace + "/" + name + " is not running (phase "
                    + (pod.getStatus() == null ? "unknown" : pod.getStatus().getPhase()) + ")");
        }
        return pod;
    }

    private static Secret secret(KubernetesClient kube, String namespace, String name) {
        Secret secret;
        try {
            secret = kube.secrets().inNamespace(namespace).withName(name).get();
        } catch (KubernetesClientException e) {
            throw new PluginException("cannot read TLS Secret " + namespace + "/" + name + ": " + reason(e), e);
        }
        if (secret == null) {
            throw new PluginException("TLS Secret " + namespace + "/" + name + " not found");
        }
        return secret;
    }

    static String reason(KubernetesClientException e) {
        return e.getStatus() != null && e.getStatus().getMessage() != null
                ? e.getStatus().getMessage()
                : e.getMessage();
    }

    @Override
    public void close() {
        etcd.close();
        closeForwards();
    }

    private void closeForwards() {
        for (LocalPortForward forward : forwards) {
            try {
                forward.close();
            } catch (IOException ignored) {
                // the process is ending anyway
            }
        }
    }
}
