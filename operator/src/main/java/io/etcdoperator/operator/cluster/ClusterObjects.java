package io.etcdoperator.operator.cluster;

import io.etcdoperator.api.v1alpha2.AdditionalMetadata;
import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.operator.events.NamespaceTermination;
import io.etcdoperator.operator.planner.ObjectSteps;
import io.etcdoperator.operator.planner.OwnedObjects;
import io.etcdoperator.operator.planner.OwnedObjects.Budget;
import io.etcdoperator.operator.planner.OwnedObjects.ServiceShape;
import io.etcdoperator.operator.planner.OwnedObjects.Shape;
import io.etcdoperator.operator.reason.Reason;
import io.etcdoperator.operator.resources.DisruptionBudgets;
import io.etcdoperator.operator.resources.Names;
import io.etcdoperator.operator.resources.Owners;
import io.etcdoperator.operator.resources.Services;
import io.etcdoperator.operator.tls.CertManagerObjects;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster-wide objects, both Services, cert-manager Certificates and the voter PodDisruptionBudget: read into {@link OwnedObjects} for the
 * planner, and written one {@link ObjectSteps} step at a time. Nothing another object controls is ever written.
 */
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
    private final CertManagerObjects certificates;

    public ClusterObjects(KubernetesClient client, CertManagerObjects certificates) {
        this.client = client;
        this.certificates = certificates;
        this.services = (namespace, name) -> Optional.ofNullable(
                client.services().inNamespace(namespace).withName(name).get());
        this.budgets =
                (namespace, name) -> Optional.ofNullable(budget(namespace, name).get());
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

    /** Both Services, headless first, and the PodDisruptionBudget as the reads have them (a foreign one is logged). */
    public OwnedObjects observe(EtcdCluster cluster, AdditionalMetadata metadata) {
        List<ServiceShape> shapes = desiredServices(cluster, metadata).stream()
                .map(desired -> new ServiceShape(
                        desired.getMetadata().getName(),
                        shape(
                                cluster,
                                services.get(
                                        namespace(cluster),
                                        desired.getMetadata().getName()),
                                desired)))
                .toList();
        return new OwnedObjects(shapes, readBudget(cluster), certificates.observe(cluster));
    }

    /** A budget that cannot be read never fails the pass (as its writes do not): it is left alone until it can. */
    private Budget readBudget(EtcdCluster cluster) {
        try {
            return budget(cluster, budgets.get(namespace(cluster), Names.disruptionBudget(cluster)));
        } catch (KubernetesClientException e) {
            budgetRefused(e);
            return Budget.UNREAD;
        }
    }

    Shape create(EtcdCluster cluster, ObjectSteps.CreateCertificate step) {
        return certificates.create(cluster, step.certificate());
    }

    /** Creates or patches one Service; answers its shape after the write (on 409: what the API server has). */
    Shape write(EtcdCluster cluster, ObjectSteps.WriteService step, AdditionalMetadata metadata) {
        Service desired = desiredServices(cluster, metadata).stream()
                .filter(s -> s.getMetadata().getName().equals(step.service()))
                .findFirst()
                .orElseThrow();
        var ref = client.services().inNamespace(namespace(cluster)).withName(step.service());
        if (step.create()) {
            return created(ref, desired) ? Shape.IN_SHAPE : shape(cluster, Optional.ofNullable(ref.get()), desired);
        }
        ref.edit(s -> {
            s.getSpec().setSelector(desired.getSpec().getSelector());
            s.getSpec().setPublishNotReadyAddresses(desired.getSpec().getPublishNotReadyAddresses());
            s.getSpec()
                    .setPorts(Services.mergePorts(
                            s.getSpec().getPorts(), desired.getSpec().getPorts()));
            return s;
        });
        return Shape.IN_SHAPE;
    }

    /**
     * Creates the budget or sets its minAvailable; never fails the pass (a problem is logged, the next pass looks
     * again). Answers the budget as this pass now takes it: on 409 what the API server has.
     */
    Budget write(EtcdCluster cluster, ObjectSteps.WriteBudget step, AdditionalMetadata metadata) {
        Resource<? extends HasMetadata> ref = budget(namespace(cluster), Names.disruptionBudget(cluster));
        try {
            if (!step.create()) {
                setMinAvailable(ref, step.minAvailable());
            } else if (!created(ref, budget(cluster, step.minAvailable(), metadata))) {
                return budget(cluster, Optional.ofNullable(ref.get()));
            }
        } catch (KubernetesClientException e) {
            budgetRefused(e);
        }
        return Budget.ours(step.minAvailable());
    }

    /** No voter left: the budget goes; never fails the pass. */
    Budget delete(EtcdCluster cluster) {
        try {
            budget(namespace(cluster), Names.disruptionBudget(cluster)).delete();
        } catch (KubernetesClientException e) {
            budgetRefused(e);
        }
        return Budget.ABSENT;
    }

    private static List<Service> desiredServices(EtcdCluster cluster, AdditionalMetadata metadata) {
        return List.of(Services.headless(cluster, metadata), Services.client(cluster, metadata));
    }

    private static Shape shape(EtcdCluster cluster, Optional<Service> actual, Service desired) {
        if (actual.isEmpty()) {
            return Shape.ABSENT;
        }
        if (!Owners.controlledBy(actual.get(), cluster.getMetadata().getUid())) {
            return Shape.FOREIGN;
        }
        return Services.ownedFieldsMatch(actual.get(), desired) ? Shape.IN_SHAPE : Shape.DRIFTED;
    }

    private static Budget budget(EtcdCluster cluster, Optional<? extends HasMetadata> actual) {
        if (actual.isEmpty()) {
            return Budget.ABSENT;
        }
        if (!Owners.controlledBy(actual.get(), cluster.getMetadata().getUid())) {
            LOG.atWarn()
                    .addKeyValue("cluster", cluster.getMetadata().getName())
                    .addKeyValue("reason", Reason.RESOURCE_CONFLICT.reason())
                    .log("a PodDisruptionBudget of this name is not ours; left as it is");
            return new Budget(Shape.FOREIGN, Optional.empty(), false);
        }
        IntOrString minAvailable;
        boolean maxUnavailable;
        if (actual.get() instanceof PodDisruptionBudget v1) {
            minAvailable = v1.getSpec().getMinAvailable();
            maxUnavailable = v1.getSpec().getMaxUnavailable() != null;
        } else {
            var v1beta1 = (io.fabric8.kubernetes.api.model.policy.v1beta1.PodDisruptionBudget) actual.get();
            minAvailable = v1beta1.getSpec().getMinAvailable();
            maxUnavailable = v1beta1.getSpec().getMaxUnavailable() != null;
        }
        return new Budget(
                Shape.IN_SHAPE, Optional.ofNullable(minAvailable).map(IntOrString::getIntVal), maxUnavailable);
    }

    private HasMetadata budget(EtcdCluster cluster, int minAvailable, AdditionalMetadata metadata) {
        return usePolicyV1()
                ? DisruptionBudgets.v1(cluster, minAvailable, metadata)
                : DisruptionBudgets.v1beta1(cluster, minAvailable, metadata);
    }

    @SuppressWarnings("unchecked")
    private void setMinAvailable(Resource<? extends HasMetadata> ref, int minAvailable) {
        if (usePolicyV1()) {
            ((Resource<PodDisruptionBudget>) ref).edit(p -> {
                p.getSpec().setMinAvailable(new IntOrString(minAvailable));
                p.getSpec().setMaxUnavailable(null);
                return p;
            });
        } else {
            ((Resource<io.fabric8.kubernetes.api.model.policy.v1beta1.PodDisruptionBudget>) ref).edit(p -> {
                p.getSpec().setMinAvailable(new IntOrString(minAvailable));
                p.getSpec().setMaxUnavailable(null);
                return p;
            });
        }
    }

    private Resource<? extends HasMetadata> budget(String namespace, String name) {
        return usePolicyV1()
                ? client.policy()
                        .v1()
                        .podDisruptionBudget()
                        .inNamespace(namespace)
                        .withName(name)
                : client.policy()
                        .v1beta1()
                        .podDisruptionBudget()
                        .inNamespace(namespace)
                        .withName(name);
    }

    private static void budgetRefused(KubernetesClientException e) {
        if (!NamespaceTermination.refused(e)) {
            LOG.atWarn()
                    .addKeyValue("code", e.getCode())
                    .addKeyValue("error", e.getMessage())
                    .log("could not reconcile PodDisruptionBudget");
        }
    }

    /** Creates {@code desired}; false on 409 (ours from a pass the cache has not caught up with, or someone else's). */
    @SuppressWarnings("unchecked")
    private static <T extends HasMetadata> boolean created(Resource<T> ref, HasMetadata desired) {
        try {
            ref.create((T) desired);
            return true;
        } catch (KubernetesClientException e) {
            if (e.getCode() != 409) {
                throw e;
            }
            return false;
        }
    }

    private static String namespace(EtcdCluster cluster) {
        return cluster.getMetadata().getNamespace();
    }

    private synchronized boolean usePolicyV1() {
        if (policyV1 == null) {
            policyV1 = client.supports(PodDisruptionBudget.class);
        }
        return policyV1;
    }
}
