package io.etcdoperator.operator.cluster;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.etcd.ConnectionPool;
import io.etcdoperator.etcd.EtcdAdmin;
import io.etcdoperator.etcd.EtcdConnection;
import io.etcdoperator.operator.reads.SecretReads;
import io.etcdoperator.operator.resources.MemberTlsView;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * Opens the etcd port for a cluster: TLS material and root credentials are read from their Secrets on every dial,
 * so rotated material is picked up without a restart. Credentials are used only once status.authEnabled latched.
 */
public class EtcdDialer {

    /** A Secret or key the dial needs is missing; the message names it, never its content. */
    public static class MissingMaterialException extends RuntimeException {
        public MissingMaterialException(String message) {
            super(message);
        }
    }

    /** A cluster is reconciled at least once a minute: a connection unused for this long belongs to a deleted one. */
    static final Duration IDLE = Duration.ofMinutes(5);

    private final EtcdAdmin.Factory factory;
    private final Duration timeout;
    private final ConnectionPool pool;
    private final RootPasswords passwords;
    private final SecretReads secrets;

    public EtcdDialer(KubernetesClient client, EtcdAdmin.Factory factory, Duration timeout) {
        this(client, factory, timeout, Clock.systemUTC());
    }

    /** {@code clock}: how old a remembered Secret is (see {@link SecretReads}). */
    public EtcdDialer(KubernetesClient client, EtcdAdmin.Factory factory, Duration timeout, Clock clock) {
        this.secrets = new SecretReads(client, clock);
        this.passwords = new RootPasswords(client, secrets);
        this.factory = factory;
        this.timeout = timeout;
        this.pool = new ConnectionPool(factory, IDLE, Clock.systemUTC());
    }

    /** A connection of the caller's own, to close when done (membership changes of single members, cleanup). */
    public EtcdAdmin open(EtcdCluster cluster, List<URI> endpoints) {
        return factory.open(new EtcdConnection(endpoints, tls(cluster), credentials(cluster), timeout));
    }

    /**
     * The cluster's one pooled connection, reused by every pass while endpoints, TLS material and credentials stay the
     * same. Never closed by the caller; {@link #discard} it when it failed.
     */
    public EtcdAdmin shared(EtcdCluster cluster, List<URI> endpoints) {
        return pool.lease(key(cluster), new EtcdConnection(endpoints, tls(cluster), credentials(cluster), timeout));
    }

    /** The pooled connection with the credentials {@code view} gives (read once per pass by the observer). */
    EtcdAdmin shared(EtcdCluster cluster, List<URI> endpoints, RootPasswords.View view) {
        return pool.lease(
                key(cluster), new EtcdConnection(endpoints, tls(cluster), credentials(cluster, view), timeout));
    }

    /** The pooled connection, dialled as root with {@code password} (one the operator's copy does not hold yet). */
    EtcdAdmin sharedAs(EtcdCluster cluster, List<URI> endpoints, String password) {
        return pool.lease(
                key(cluster),
                new EtcdConnection(
                        endpoints,
                        tls(cluster),
                        Optional.of(new EtcdConnection.Credentials("root", password)),
                        timeout));
    }

    /** The Secrets every pass reads, remembered for cache passes (one memory for the operator). */
    public SecretReads secrets() {
        return secrets;
    }

    public void discard(EtcdCluster cluster) {
        pool.discard(key(cluster));
    }

    public void discard(String namespace, String name) {
        pool.discard(namespace + "/" + name);
    }

    /** Open pooled connections (a metric: at most one per cluster). */
    public int pooled() {
        return pool.size();
    }

    private static String key(EtcdCluster cluster) {
        return cluster.getMetadata().getNamespace() + "/"
                + cluster.getMetadata().getName();
    }

    private Optional<EtcdConnection.ClientTls> tls(EtcdCluster cluster) {
        MemberTlsView view = MemberTlsView.of(cluster);
        if (!view.clientTls()) {
            return Optional.empty();
        }
        String ns = cluster.getMetadata().getNamespace();
        byte[] ca = key(ns, view.clientSecret(), "ca.crt");
        if (!view.clientMtls()) {
            return Optional.of(new EtcdConnection.ClientTls(ca, null, null));
        }
        String clientSecret = MemberTlsView.operatorClientSecret(cluster);
        return Optional.of(
                new EtcdConnection.ClientTls(ca, key(ns, clientSecret, "tls.crt"), key(ns, clientSecret, "tls.key")));
    }

    private Optional<EtcdConnection.Credentials> credentials(EtcdCluster cluster) {
        return credentials(cluster, passwords(cluster));
    }

    /** Once auth latched: the operator's copy of the password etcd has, else (before it is recorded) the user's. */
    private Optional<EtcdConnection.Credentials> credentials(EtcdCluster cluster, RootPasswords.View view) {
        var auth = cluster.getSpec().getAuth();
        if (!latched(cluster) || auth == null || auth.getRootCredentialsSecretRef() == null) {
            return Optional.empty();
        }
        String password = view.applied()
                .or(view::wanted)
                .orElseThrow(() -> new MissingMaterialException("Secret "
                        + auth.getRootCredentialsSecretRef().getName() + " is missing or has an empty password"));
        return Optional.of(new EtcdConnection.Credentials("root", password));
    }

    private static boolean latched(EtcdCluster cluster) {
        return cluster.getStatus() != null
                && Boolean.TRUE.equals(cluster.getStatus().getAuthEnabled());
    }

    /** What the two Secrets say of root's password (latched auth only). */
    RootPasswords.View passwords(EtcdCluster cluster) {
        return latched(cluster) ? passwords.read(cluster) : RootPasswords.View.NONE;
    }

    private byte[] key(String namespace, String secretName, String key) {
        Secret secret = secrets.get(namespace, secretName).orElse(null);
        if (secret == null) {
            throw new MissingMaterialException("Secret " + secretName + " not found");
        }
        String value = secret.getData() == null ? null : secret.getData().get(key);
        if (value == null || value.isEmpty()) {
            throw new MissingMaterialException("Secret " + secretName + " has no " + key);
        }
        return Base64.getDecoder().decode(value);
    }
}
