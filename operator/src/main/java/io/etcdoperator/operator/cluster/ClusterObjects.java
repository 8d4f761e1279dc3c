package io.etcdoperator.operator.cluster;

import io.etcdoperator.api.v1alpha2.AdditionalMetadata;
import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.operator.events.NamespaceTermination;
import io.etcdoperator.operator.reason.Reason;
import io.etcdoperator.operator.resources.DisruptionBudgets;
import io.etcdoperator.operator.resources.Names;
import io.etcdoperator.operator.resources.Owners;
import io.etcdoperator.operator.resources.Services;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The cluster-wide objects: both Services and the voter PodDisruptionBudget, created once and kept in shape. */
public class ClusterObjects {

    private static final Logger LOG = LoggerFactory.getLogger(ClusterObjects.class);

    /** Where objects of one kind are read: the cluster controller's informer once it runs, else the API server. */
    @FunctionalInterface
    public interface Reads<T> {
        Optional<T> get(String namespace, String name);
    }

    private final KubernetesClient client;
    private volatile Reads<Service> services;
    private volatile Reads<? extends HasMetadata> budgets;
    private Boolean policyV1;

    public ClusterObjects(KubernetesClient client) {
        this.client = client;
        this.services = (namespace, name) -> Optional.ofNullable(
                client.services().inNamespace(namespace).withName(name).get());
        this.budgets = (namespace, name) -> Optional.ofNullable(
                usePolicyV1()
                        ? client.policy()
                                .v1()
                                .podDisruptionBudget()
                                .inNamespace(namespace)
                                .withName(name)
                                .get()
                        : client.policy()
                                .v1beta1()
                                .podDisruptionBudget()
                                .inNamespace(namespace)
                                .withName(name)
                                .get());
    }

    /** From now on the Services come from {@code reads} (a steady pass then GETs none of them). */
    public void readServicesFrom(Reads<Service> reads) {
        this.services = reads;
    }

    /** From now on the PodDisruptionBudget comes from {@code reads}, of the kind {@link #disruptionBudgetType()}. */
    public void readDisruptionBudgetsFrom(Reads<? extends HasMetadata> reads) {
        this.budgets = reads;
    }

    /** policy/v1 where the API server serves it (1.21+), else policy/v1beta1. */
    public Class<? extends HasMetadata> disruptionBudgetType() {
        return usePolicyV1()
                ? PodDisruptionBudget.class
                : io.fabric8.kubernetes.api.model.policy.v1beta1.PodDisruptionBudget.class;
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
        var ref = client.services()
                .inNamespace(desired.getMetadata().getNamespace())
                .withName(desired.getMetadata().getName());
        Service actual = services.get(
                        desired.getMetadata().getNamespace(),
                        desired.getMetadata().getName())
                .orElse(null);
        if (actual == null) {
            actual = createdOrFound(ref, desired);
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
                s.getSpec()
                        .setPorts(Services.mergePorts(
                                s.getSpec().getPorts(), desired.getSpec().getPorts()));
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
            if (!NamespaceTermination.refused(e)) {
                LOG.atWarn()
                        .addKeyValue("code", e.getCode())
                        .addKeyValue("error", e.getMessage())
                        .log("could not reconcile PodDisruptionBudget");
            }
        }
    }

    private void ensureV1(EtcdCluster cluster, int voters, int target, AdditionalMetadata metadata) {
        var desired = voters == 0 ? null : DisruptionBudgets.v1(cluster, voters, target, metadata);
        ensure(
                cluster,
                client.policy()
                        .v1()
                        .podDisruptionBudget()
                        .inNamespace(cluster.getMetadata().getNamespace())
                        .withName(Names.disruptionBudget(cluster)),
                PodDisruptionBudget.class,
                desired,
                p -> p.getSpec().getMinAvailable(),
                p -> p.getSpec().getMaxUnavailable(),
                p -> {
                    p.getSpec().setMinAvailable(desired.getSpec().getMinAvailable());
                    p.getSpec().setMaxUnavailable(null);
                    return p;
                });
    }

    private void ensureV1beta1(EtcdCluster cluster, int voters, int target, AdditionalMetadata metadata) {
        var desired = voters == 0 ? null : DisruptionBudgets.v1beta1(cluster, voters, target, metadata);
        ensure(
                cluster,
                client.policy()
                        .v1beta1()
                        .podDisruptionBudget()
                        .inNamespace(cluster.getMetadata().getNamespace())
                        .withName(Names.disruptionBudget(cluster)),
                io.fabric8.kubernetes.api.model.policy.v1beta1.PodDisruptionBudget.class,
                desired,
                p -> p.getSpec().getMinAvailable(),
                p -> p.getSpec().getMaxUnavailable(),
                p -> {
                    p.getSpec().setMinAvailable(desired.getSpec().getMinAvailable());
                    p.getSpec().setMaxUnavailable(null);
                    return p;
                });
    }

    /** One PDB kind: created, repaired, or deleted when there are no voters ({@code desired} null); never another's. */
    private <T extends HasMetadata> void ensure(
            EtcdCluster cluster,
            Resource<T> ref,
            Class<T> type,
            T desired,
            Function<T, IntOrString> minAvailable,
            Function<T, IntOrString> maxUnavailable,
            UnaryOperator<T> repair) {
        T actual = budgets.get(cluster.getMetadata().getNamespace(), Names.disruptionBudget(cluster))
                .map(type::cast)
                .orElse(null);
        if (actual == null) {
            actual = desired == null ? null : createdOrFound(ref, desired);
            if (actual == null) {
                return;
            }
        }
        if (!Owners.controlledBy(actual, cluster.getMetadata().getUid())) {
            LOG.atWarn()
                    .addKeyValue("cluster", cluster.getMetadata().getName())
                    .addKeyValue("reason", Reason.RESOURCE_CONFLICT.reason())
                    .log("a PodDisruptionBudget of this name is not ours; left as it is");
            return;
        }
        if (desired == null) {
            ref.delete();
        } else if (!minAvailable.apply(desired).equals(minAvailable.apply(actual))
                || maxUnavailable.apply(actual) != null) {
            ref.edit(repair);
        }
    }

    /**
     * Creates {@code desired} and answers null; on 409 answers what is there: ours from a pass the cache has not caught
     * up with, or someone else's (unlabelled, so never in the cache).
     */
    private static <T extends HasMetadata> T createdOrFound(Resource<T> ref, T desired) {
        try {
            ref.create(desired);
            return null;
        } catch (KubernetesClientException e) {
            if (e.getCode() != 409) {
                throw e;
            }
        }
        return ref.get();
    }

    private synchronized boolean usePolicyV1() {
        if (policyV1 == null) {
            policyV1 = client.supports(PodDisruptionBudget.class);
        }
        return policyV1;
    }
}
