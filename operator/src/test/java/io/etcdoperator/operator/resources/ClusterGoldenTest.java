package io.etcdoperator.operator.resources;

import io.etcdoperator.api.v1alpha2.AdditionalMetadata;
import io.etcdoperator.api.v1alpha2.EtcdCluster;
import org.junit.jupiter.api.Test;

/** Cluster-level objects (Services, PDB, new EtcdMembers) rendered from one latched EtcdCluster. */
class ClusterGoldenTest {

  private final EtcdCluster cluster = Fixtures.cluster("cluster-demo");
  private final AdditionalMetadata latched = cluster.getStatus().getObserved().getAdditionalMetadata();

  @Test
  void headlessService() {
    Golden.assertMatches("service-headless", Services.headless(cluster, latched));
  }

  @Test
  void clientService() {
    Golden.assertMatches("service-client", Services.client(cluster, latched));
  }

  /** Mid scale-up: 3 voters towards a target of 5 keeps a majority of 5 up. */
  @Test
  void disruptionBudgetPolicyV1() {
    Golden.assertMatches("pdb-v1", DisruptionBudgets.v1(cluster, 3, 5, latched));
  }

  @Test
  void disruptionBudgetPolicyV1beta1() {
    Golden.assertMatches("pdb-v1beta1", DisruptionBudgets.v1beta1(cluster, 3, 5, latched));
  }

  @Test
  void pendingJoiningMember() {
    Golden.assertMatches("etcdmember-pending", EtcdMembers.pending(cluster, false));
  }

  @Test
  void pendingSeedCarriesTheRestore() {
    Golden.assertMatches("etcdmember-pending-seed", EtcdMembers.pending(cluster, true));
  }
}
