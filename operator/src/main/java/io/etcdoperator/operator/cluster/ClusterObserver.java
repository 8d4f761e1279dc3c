package io.etcdoperator.operator.cluster;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.api.v1alpha2.EtcdOperatorApi;
import io.etcdoperator.etcd.ClusterId;
import io.etcdoperator.etcd.EtcdAdmin;
import io.etcdoperator.etcd.EtcdException;
import io.etcdoperator.etcd.MemberId;
import io.etcdoperator.operator.planner.EtcdView;
import io.etcdoperator.operator.planner.ObservedCluster;
import io.etcdoperator.operator.planner.ObservedMember;
import io.etcdoperator.operator.planner.Reason;
import io.etcdoperator.operator.resources.Names;
import io.etcdoperator.operator.resources.Owners;
import io.etcdoperator.operator.status.Conditions;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Reads the world for one pass. EtcdMembers are LISTed from the API server, not the informer cache, so a member
 * created in the previous pass is never missed (a stale cache would create a duplicate).
 */
public class ClusterObserver {

  /** The observation plus the open etcd connection (if one was made) for the executor to reuse. */
  public record Observation(ObservedCluster cluster, List<EtcdMember> members, Optional<EtcdAdmin> etcd)
      implements AutoCloseable {
    @Override
    public void close() {
      etcd.ifPresent(EtcdAdmin::close);
    }
  }

  private final KubernetesClient client;
  private final EtcdDialer dialer;

  public ClusterObserver(KubernetesClient client, EtcdDialer dialer) {
    this.client = client;
    this.dialer = dialer;
  }

  public List<EtcdMember> members(EtcdCluster cluster) {
    return client.resources(EtcdMember.class)
        .inNamespace(cluster.getMetadata().getNamespace())
        .withLabel(EtcdOperatorApi.LABEL_CLUSTER, cluster.getMetadata().getName())
        .list()
        .getItems();
  }

  public Observation observe(EtcdCluster cluster) {
    List<EtcdMember> members = members(cluster);
    String uid = cluster.getMetadata().getUid();
    List<ObservedMember> observed = members.stream().map(m -> toObserved(m, uid)).toList();
    Optional<ClusterId> clusterId = Optional.ofNullable(cluster.getStatus().getClusterID())
        .filter(s -> !s.isBlank()).map(ClusterId::parse);
    List<URI> endpoints = endpoints(members, clusterId.isPresent());
    if (endpoints.isEmpty()) {
      return new Observation(new ObservedCluster(clusterId, observed, EtcdView.NOT_ASKED), members, Optional.empty());
    }
    EtcdAdmin etcd = null;
    try {
      etcd = dialer.open(cluster, endpoints);
      EtcdView view = new EtcdView.Reached(etcd.members());
      return new Observation(new ObservedCluster(clusterId, observed, view), members, Optional.of(etcd));
    } catch (EtcdException | EtcdDialer.MissingMaterialException e) {
      if (etcd != null) {
        etcd.close();
      }
      EtcdView view = new EtcdView.Unreachable(reasonOf(e, cluster), e.getMessage());
      return new Observation(new ObservedCluster(clusterId, observed, view), members, Optional.empty());
    }
  }

  static Reason reasonOf(RuntimeException e, EtcdCluster cluster) {
    boolean authWanted = cluster.getSpec().getAuth() != null && Boolean.TRUE.equals(cluster.getSpec().getAuth().getEnabled());
    if (e instanceof EtcdException.AuthRequired && !authWanted) {
      return Reason.AUTH_REQUIRED_NOT_CONFIGURED;
    }
    if (e instanceof EtcdException.AuthRejected) {
      return Reason.AUTH_CREDENTIALS_REJECTED;
    }
    return Reason.CLUSTER_UNREACHABLE;
  }

  /** Voters with a Pod; before formation only the seed. Learners never: they refuse most RPCs. */
  static List<URI> endpoints(List<EtcdMember> members, boolean formed) {
    List<EtcdMember> live = members.stream()
        .filter(m -> m.getMetadata().getDeletionTimestamp() == null)
        .filter(m -> !Boolean.TRUE.equals(m.getSpec().getDormant()))
        .filter(ClusterObserver::hasPod)
        .toList();
    if (!formed) {
      return live.stream().filter(m -> Boolean.TRUE.equals(m.getSpec().getBootstrap())).map(Names::clientUrl).toList();
    }
    return live.stream()
        .filter(m -> m.getStatus() != null && Boolean.TRUE.equals(m.getStatus().getIsVoter()))
        .map(Names::clientUrl)
        .toList();
  }

  static ObservedMember toObserved(EtcdMember m, String clusterUid) {
    var status = m.getStatus();
    String created = m.getMetadata().getCreationTimestamp();
    return new ObservedMember(
        m.getMetadata().getName(),
        created == null ? Instant.MAX : Instant.parse(created),
        Boolean.TRUE.equals(m.getSpec().getBootstrap()),
        m.getSpec().getInitialCluster() == null || m.getSpec().getInitialCluster().isEmpty(),
        Boolean.TRUE.equals(m.getSpec().getDormant()),
        m.getMetadata().getDeletionTimestamp() != null,
        status != null && Conditions.isTrue(status.getConditions(), Conditions.READY),
        hasPod(m),
        status != null && Boolean.TRUE.equals(status.getIsVoter()),
        Optional.ofNullable(status == null ? null : status.getMemberID()).filter(s -> !s.isBlank()).map(MemberId::parse),
        Names.peerUrl(m),
        Owners.controlledBy(m, clusterUid));
  }

  private static boolean hasPod(EtcdMember m) {
    return m.getStatus() != null && m.getStatus().getPodName() != null && !m.getStatus().getPodName().isEmpty();
  }
}
