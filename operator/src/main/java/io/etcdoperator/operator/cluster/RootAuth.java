package io.etcdoperator.operator.cluster;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdClusterStatus;
import io.etcdoperator.etcd.EtcdAdmin;
import io.etcdoperator.etcd.EtcdException;
import io.etcdoperator.operator.cluster.StepExecutor.Outcome;
import io.etcdoperator.operator.events.EventRecorder;
import io.etcdoperator.operator.planner.Reason;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * spec.auth.enabled: user root with the Secret's password, role root, then AuthEnable, once the cluster converged.
 * status.authEnabled latches on success or when etcd already requires auth (a crash between AuthEnable and the status
 * write, or a restored snapshot); from then on every dial carries root's credentials. See docs/tls.md#authentication.
 */
final class RootAuth {

  private static final Logger LOG = LoggerFactory.getLogger(RootAuth.class);
  static final Duration RETRY = Duration.ofSeconds(10);
  static final String PASSWORD_KEY = "password";

  private final KubernetesClient client;
  private final EventRecorder events;

  RootAuth(KubernetesClient client, EventRecorder events) {
    this.client = client;
    this.events = events;
  }

  static boolean wanted(EtcdCluster cluster) {
    var auth = cluster.getSpec().getAuth();
    return auth != null && Boolean.TRUE.equals(auth.getEnabled());
  }

  static boolean latched(EtcdClusterStatus status) {
    return Boolean.TRUE.equals(status.getAuthEnabled());
  }

  /**
   * Empty when there is nothing to do this pass (auth not wanted, already latched, or no etcd to ask); otherwise what
   * the pass did. Enabling waits for {@code converged}; latching an auth that is already on does not.
   */
  Optional<Outcome> pass(EtcdCluster cluster, EtcdClusterStatus status, Optional<EtcdAdmin> etcd, boolean converged) {
    if (!wanted(cluster) || latched(status) || etcd.isEmpty() || status.getClusterID() == null) {
      return Optional.empty();
    }
    try {
      if (etcd.get().authEnabled()) {
        return Optional.of(latch(cluster, status, "etcd already requires authentication; dialing as root from now on"));
      }
      if (!converged) {
        return Optional.empty();
      }
      Optional<String> password = password(cluster);
      if (password.isEmpty()) {
        String secret = cluster.getSpec().getAuth().getRootCredentialsSecretRef().getName();
        return Optional.of(Outcome.of(Reason.AUTH_SECRET_INVALID, "Secret " + secret
            + " is missing or has no non-empty '" + PASSWORD_KEY + "'; authentication stays off", RETRY));
      }
      etcd.get().enableAuth(password.get());
      return Optional.of(latch(cluster, status, "etcd authentication enabled; user root holds role root"));
    } catch (EtcdException e) {
      LOG.atWarn().addKeyValue("cluster", cluster.getMetadata().getName()).addKeyValue("error", e.getMessage())
          .log("enabling etcd authentication failed; will retry");
      return Optional.of(Outcome.of(Reason.AUTH_ENABLE_FAILED, "enabling authentication failed: " + e.getMessage(),
          RETRY));
    }
  }

  private Outcome latch(EtcdCluster cluster, EtcdClusterStatus status, String message) {
    status.setAuthEnabled(true);
    events.normal(cluster, Reason.AUTH_ENABLED, message);
    LOG.atInfo().addKeyValue("cluster", cluster.getMetadata().getName()).log(message);
    return Outcome.of(Reason.AUTH_ENABLED, message, StepExecutor.SOON);
  }

  private Optional<String> password(EtcdCluster cluster) {
    String name = cluster.getSpec().getAuth().getRootCredentialsSecretRef().getName();
    Secret secret = client.secrets().inNamespace(cluster.getMetadata().getNamespace()).withName(name).get();
    String encoded = secret == null || secret.getData() == null ? null : secret.getData().get(PASSWORD_KEY);
    if (encoded == null || encoded.isEmpty()) {
      return Optional.empty();
    }
    String password = new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8);
    return password.isEmpty() ? Optional.empty() : Optional.of(password);
  }
}
