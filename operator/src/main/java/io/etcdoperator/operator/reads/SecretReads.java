package io.etcdoperator.operator.reads;

import io.etcdoperator.operator.resources.Owners;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Optional;

/**
 * The Secrets passes read (TLS material, root passwords). The operator may not list or watch Secrets, so a pass on the
 * API server GETs each one and remembers what it got; a {@link CachePass} answers from a read younger than the
 * Secret's period and GETs it again, alone, once that has passed (docs/concepts.md, "Cache passes").
 */
public final class SecretReads {

    /** The period of the Secrets the operator writes itself: only a person's mistake changes them behind its back. */
    public static final Duration REREAD = Duration.ofMinutes(5);
    /** The period of a user's Secret (or a missing one): a rotated password or certificate is seen within a minute. */
    public static final Duration USER_REREAD = Duration.ofMinutes(1);

    private final KubernetesClient client;
    private final Clock clock;
    private final RecentReads<Optional<Secret>> reads = new RecentReads<>(REREAD);

    public SecretReads(KubernetesClient client, Clock clock) {
        this.client = client;
        this.clock = clock;
    }

    /** The Secret, or empty when it does not exist (also remembered: a missing Secret stays missing in cache passes). */
    public Optional<Secret> get(String namespace, String name) {
        String key = namespace + "/" + name;
        Instant now = clock.instant();
        if (CachePass.running()) {
            Optional<Optional<Secret>> read = reads.fresh(key, now, SecretReads::period);
            if (read.isPresent()) {
                return read.get().map(SecretReads::copy);
            }
        }
        Optional<Secret> secret = CachePass.sending(() -> Optional.ofNullable(
                client.secrets().inNamespace(namespace).withName(name).get()));
        reads.put(key, secret.map(SecretReads::copy), now);
        return secret;
    }

    /** The operator's own Secrets (an EtcdCluster controls them) every 5 minutes; a user's, or a missing one, every 1. */
    private static Duration period(Optional<Secret> secret) {
        return secret.filter(Owners::controlledByACluster).isPresent() ? REREAD : USER_REREAD;
    }

    /** How many Secrets are remembered (reads older than {@link #REREAD} are dropped at the next sweep). */
    public int remembered() {
        return reads.size();
    }

    /** What a pass reads of a Secret: its identity, version, owners, type and data; no managed fields. */
    private static Secret copy(Secret secret) {
        ObjectMeta from = secret.getMetadata();
        ObjectMeta meta = new ObjectMeta();
        meta.setName(from.getName());
        meta.setNamespace(from.getNamespace());
        meta.setUid(from.getUid());
        meta.setResourceVersion(from.getResourceVersion());
        meta.setDeletionTimestamp(from.getDeletionTimestamp());
        meta.setOwnerReferences(from.getOwnerReferences());
        meta.setLabels(from.getLabels() == null ? null : new HashMap<>(from.getLabels()));
        if (from.getAnnotations() != null) { // kubectl's last-applied copy would hold the data a second time
            meta.setAnnotations(new HashMap<>(from.getAnnotations()));
            meta.getAnnotations().remove("kubectl.kubernetes.io/last-applied-configuration");
        }
        Secret copy = new Secret();
        copy.setApiVersion(secret.getApiVersion());
        copy.setKind(secret.getKind());
        copy.setMetadata(meta);
        copy.setType(secret.getType());
        copy.setImmutable(secret.getImmutable());
        copy.setData(secret.getData() == null ? null : new HashMap<>(secret.getData()));
        copy.setStringData(secret.getStringData() == null ? null : new HashMap<>(secret.getStringData()));
        return copy;
    }
}
