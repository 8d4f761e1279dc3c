package io.etcdoperator.operator.cluster;

import io.etcdoperator.api.v1alpha2.AdditionalMetadata;
import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.operator.planner.Quorum;
import io.etcdoperator.operator.resources.DisruptionBudgets;
import io.etcdoperator.operator.reason.Reason;
import io.etcdoperator.operator.resources.Names;
import io.etcdoperator.operator.resources.Owners;
import io.etcdoperator.operator.resources.Services;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The cluster-wide objects: both Services and the voter PodDisruptionBudget, created once and kept in shape. */
public class ClusterObjects {

  private static final Logger LOG = LoggerFactory.getLogger(ClusterObjects.class);

  /** Where the cluster's Services are read: the cluster controller's informer once it runs, else the API server. */
  @FunctionalInterface
  public interface ServiceReads {
    Optional<Service> get(String namespace, String name);
  }

  private final KubernetesClient client;
  private volatile ServiceReads services;
  private Boolean policyV1;

  public ClusterObjects(KubernetesClient client) {
    this.client = client;
    this.services = (namespace, name) -> Optional.ofNullable(client.services().inNamespace(namespace).withName(name)
        .get());
  }

  /** From now on the Services come from {@code reads} (a steady pass then GETs none of them). */
  public void readServicesFrom(ServiceReads reads) {
    this.services = reads;
  }

  /**
   * Creates or repairs both Services. One of that name that this cluster does not control is never touched: the
   * answer names it, and the cluster makes no progress until a person renames or removes it.
   */
  public Optional<String> ensureServices(EtcdCluster cluster, AdditionalMetadata metadata) {
    return ensure(cluster, Services.headless(cluster, metadata))
        .or(() -> ensure(cluster, Services.client(cluster, metadata)));
  }

  private Optional<String> ensure(EtcdCluster cluster, Service desired) {
    var ref = client.services().inNamespace(desired.getMetadata().getNamespace()).withName(desired.getMetadata().getName());
    Service actual = services.get(desired.getMetadata().getNamespace(), desired.getMetadata().getName()).orElse(null);
    if (actual == null) {
      try {
        ref.create(desired);
        return Optional.empty();
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409) {
          throw e;
        }
      }
      // not in the cache but there: ours from a pass the cache has not caught up with, or someone else's (unlabelled)
      actual = ref.get();
      if (actual == null) {
        return Optional.empty();
      }
    }
    if (!Owners.controlledBy(actual, cluster.getMetadata().getUid())) {
      return Optional.of("Service " + desired.getMetadata().getName() + " exists and is not controlled by this "
          + "EtcdCluster; rename or delete it");
    }
    if (!Services.ownedFieldsMatch(actual, desired)) {
      ref.edit(s -> {
        s.getSpec().setSelector(desired.getSpec().getSelector());
        s.getSpec().setPublishNotReadyAddresses(desired.getSpec().getPublishNotReadyAddresses());
        s.getSpec().setPorts(Services.mergePorts(s.getSpec().getPorts(), desired.getSpec().getPorts()));
        return s;
      });
    }
    return Optional.empty();
  }

  /** Never fails the reconcile: a PDB problem is logged, the cluster keeps being reconciled. */
  public void ensureDisruptionBudget(EtcdCluster cluster, int voters, int target, AdditionalMetadata metadata) {
    try {
      if (usePolicyV1()) {
        ensureV1(cluster, voters, target, metadata);
      } else {
        ensureV1beta1(cluster, voters, target, metadata);
      }
    } catch (KubernetesClientException e) {
      LOG.atWarn().addKeyValue("code", e.getCode()).addKeyValue("error", e.getMessage())
          .log("could not reconcile PodDisruptionBudget");
    }
  }

  private void ensureV1(EtcdCluster cluster, int voters, int target, AdditionalMetadata metadata) {
    var ref = client.policy().v1().podDisruptionBudget().inNamespace(cluster.getMetadata().getNamespace())
        .withName(Names.disruptionBudget(cluster));
    var actual = ref.get();
    if (actual != null && !Owners.controlledBy(actual, cluster.getMetadata().getUid())) {
      LOG.atWarn().addKeyValue("cluster", cluster.getMetadata().getName()).addKeyValue("reason",
          Reason.RESOURCE_CONFLICT.reason()).log("a PodDisruptionBudget of this name is not ours; left as it is");
      return;
    }
    if (voters == 0) {
      if (actual != null) {
        ref.delete();
      }
      return;
    }
    var desired = DisruptionBudgets.v1(cluster, voters, target, metadata);
    if (actual == null) {
      ref.create(desired);
    } else if (!desired.getSpec().getMinAvailable().equals(actual.getSpec().getMinAvailable())
        || actual.getSpec().getMaxUnavailable() != null) {
      ref.edit(p -> {
        p.getSpec().setMinAvailable(new IntOrString(Quorum.minAvailable(voters, target)));
        p.getSpec().setMaxUnavailable(null);
        return p;
      });
    }
  }

  private void ensureV1beta1(EtcdCluster cluster, int voters, int target, AdditionalMetadata metadata) {
    var ref = client.policy().v1beta1().podDisruptionBudget().inNamespace(cluster.getMetadata().getNamespace())
        .withName(Names.disruptionBudget(cluster));
    var actual = ref.get();
    if (actual != null && !Owners.controlledBy(actual, cluster.getMetadata().getUid())) {
      LOG.atWarn().addKeyValue("cluster", cluster.getMetadata().getName()).addKeyValue("reason",
          Reason.RESOURCE_CONFLICT.reason()).log("a PodDisruptionBudget of this name is not ours; left as it is");
      return;
    }
    if (voters == 0) {
      if (actual != null) {
        ref.delete();
      }
      return;
    }
    var desired = DisruptionBudgets.v1beta1(cluster, voters, target, metadata);
    if (actual == null) {
      ref.create(desired);
    } else if (!desired.getSpec().getMinAvailable().equals(actual.getSpec().getMinAvailable())
        || actual.getSpec().getMaxUnavailable() != null) {
      ref.edit(p -> {
        p.getSpec().setMinAvailable(new IntOrString(Quorum.minAvailable(voters, target)));
        p.getSpec().setMaxUnavailable(null);
        return p;
      });
    }
  }

  private synchronized boolean usePolicyV1() {
    if (policyV1 == null) {
      policyV1 = client.supports(io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget.class);
    }
    return policyV1;
  }
}
