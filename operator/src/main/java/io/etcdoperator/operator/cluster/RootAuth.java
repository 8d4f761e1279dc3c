package io.etcdoperator.operator.cluster;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.etcd.EtcdAdmin;
import io.etcdoperator.etcd.EtcdConnection;
import io.etcdoperator.etcd.EtcdException;
import io.etcdoperator.operator.cluster.StepExecutor.Outcome;
import io.etcdoperator.operator.events.EventRecorder;
import io.etcdoperator.operator.reason.Reason;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The actions of spec.auth.enabled; the planner decides when (EnableAuth once the cluster converged, LatchAuth when
 * etcd already requires auth). status.authEnabled is the sole switch for dialing with credentials. See docs/auth.md.
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

  /** Latches status.authEnabled (the caller writes it); from then on every dial carries root's credentials. */
  Outcome latch(EtcdCluster cluster, String message) {
    events.normal(cluster, Reason.AUTH_ENABLED, message);
    LOG.atInfo().addKeyValue("cluster", cluster.getMetadata().getName()).log(message);
    return new Outcome(Reason.AUTH_ENABLED, message, StepExecutor.SOON, Optional.empty(), true, false);
  }

  /** User root with the Secret's password, role root, AuthEnable; a bad Secret or a refusal is a named reason. */
  Outcome enable(EtcdCluster cluster, EtcdAdmin etcd) {
    Optional<String> password = password(cluster);
    if (password.isEmpty()) {
      String secret = cluster.getSpec().getAuth().getRootCredentialsSecretRef().getName();
      return Outcome.problem(Reason.AUTH_SECRET_INVALID, "Secret " + secret + " is missing or has no non-empty '"
          + PASSWORD_KEY + "'; authentication stays off", RETRY);
    }
    try {
      etcd.enableAuth(password.get());
      return latch(cluster, "etcd authentication enabled; user root holds role root");
    } catch (EtcdException e) {
      LOG.atWarn().addKeyValue("cluster", cluster.getMetadata().getName()).addKeyValue("error", e.getMessage())
          .log("enabling etcd authentication failed; will retry");
      return Outcome.problem(Reason.AUTH_ENABLE_FAILED, "enabling authentication failed: " + e.getMessage(), RETRY);
    }
  }

  private Optional<String> password(EtcdCluster cluster) {
    String name = cluster.getSpec().getAuth().getRootCredentialsSecretRef().getName();
    Secret secret = client.secrets().inNamespace(cluster.getMetadata().getNamespace()).withName(name).get();
    String encoded = secret == null || secret.getData() == null ? null : secret.getData().get(PASSWORD_KEY);
    if (encoded == null || encoded.isEmpty()) {
      return Optional.empty();
    }
    String password = EtcdConnection.Credentials.password(Base64.getDecoder().decode(encoded));
    return password.isEmpty() ? Optional.empty() : Optional.of(password);
  }
}
