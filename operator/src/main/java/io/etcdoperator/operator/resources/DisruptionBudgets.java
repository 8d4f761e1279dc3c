package io.etcdoperator.operator.resources;

import io.etcdoperator.api.v1alpha2.AdditionalMetadata;
import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import java.util.Map;

/**
 * The voter-only PodDisruptionBudget with the minAvailable the planner asks (a majority of max(voters, target), so a
 * drain never takes quorum).
 * policy/v1 where served, policy/v1beta1 on older servers (same shape).
 */
public final class DisruptionBudgets {

    private DisruptionBudgets() {}

    public static PodDisruptionBudget v1(EtcdCluster cluster, int minAvailable, AdditionalMetadata metadata) {
        return new PodDisruptionBudgetBuilder()
                .withMetadata(metadata(cluster, metadata))
                .withNewSpec()
                .withMinAvailable(new IntOrString(minAvailable))
                .withNewSelector()
                .withMatchLabels(Labels.voters(cluster.getMetadata().getName()))
                .endSelector()
                .endSpec()
                .build();
    }

    public static io.fabric8.kubernetes.api.model.policy.v1beta1.PodDisruptionBudget v1beta1(
            EtcdCluster cluster, int minAvailable, AdditionalMetadata metadata) {
        return new io.fabric8.kubernetes.api.model.policy.v1beta1.PodDisruptionBudgetBuilder()
                .withMetadata(metadata(cluster, metadata))
                .withNewSpec()
                .withMinAvailable(new IntOrString(minAvailable))
                .withNewSelector()
                .withMatchLabels(Labels.voters(cluster.getMetadata().getName()))
                .endSelector()
                .endSpec()
                .build();
    }

    private static ObjectMeta metadata(EtcdCluster cluster, AdditionalMetadata metadata) {
        return new ObjectMetaBuilder()
                .withName(Names.disruptionBudget(cluster))
                .withNamespace(cluster.getMetadata().getNamespace())
                .withLabels(Labels.withUserLabels(
                        Labels.cluster(cluster.getMetadata().getName()), metadata))
                .withAnnotations(Labels.withUserAnnotations(Map.of(), metadata))
                .withOwnerReferences(Owners.controller(cluster))
                .build();
    }
}
