package io.etcdoperator.operator.reads;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Secrets passes read (TLS material, root passwords). The operator may not list or watch Secrets, so a pass on the
 * API server GETs each one and remembers what it got; a {@link CachePass} answers from a read at most {@link #REREAD}
 * old, else it needs the API server. A Secret changed by hand is thus seen within that time (docs/concepts.md).
 */
public final class SecretReads {

  /** As often as a ready member's safety-net pass: a TLS or auth cluster at rest costs one API pass per period. */
  public static final Duration REREAD = Duration.ofMinutes(5);

  private record Read(Optional<Secret> secret, Instant at) {
  }

  private final KubernetesClient client;
  private final Clock clock;
  private final Map<String, Read> reads = new ConcurrentHashMap<>();
  private volatile Instant lastSweep;

  public SecretReads(KubernetesClient client, Clock clock) {
    this.client = client;
    this.clock = clock;
    this.lastSweep = clock.instant();
  }

  /** The Secret, or empty when it does not exist (also remembered: a missing Secret stays missing in cache passes). */
  public Optional<Secret> get(String namespace, String name) {
    String key = namespace + "/" + name;
    Instant now = clock.instant();
    if (CachePass.running()) {
      Read read = reads.get(key);
      if (read == null || read.at().plus(REREAD).isBefore(now)) {
        CachePass.needsApiServer("Secret " + key + " not read in the last " + REREAD.toMinutes() + " min");
      }
      return read.secret().map(SecretReads::copy);
    }
    Optional<Secret> secret = Optional.ofNullable(client.secrets().inNamespace(namespace).withName(name).get());
    reads.put(key, new Read(secret.map(SecretReads::copy), now));
    sweep(now);
    return secret;
  }

  /** How many Secrets are remembered (entries older than {@link #REREAD} are dropped at the next sweep). */
  public int remembered() {
    return reads.size();
  }

  private void sweep(Instant now) {
    if (lastSweep.plus(REREAD).isAfter(now)) {
      return;
    }
    lastSweep = now;
    reads.entrySet().removeIf(e -> e.getValue().at().plus(REREAD).isBefore(now));
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
