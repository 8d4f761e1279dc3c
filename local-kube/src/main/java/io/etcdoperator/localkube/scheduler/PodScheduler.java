package io.etcdoperator.localkube.scheduler;

import io.fabric8.kubernetes.api.model.Binding;
import io.fabric8.kubernetes.api.model.BindingBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.lang.System.Logger.Level;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Stands in for kube-scheduler: binds each pending Pod of the default scheduler to a node chosen by
 * {@link SchedulingPolicy}, once its PersistentVolumeClaims are bound, with a {@code Binding} as the real one does.
 * A Pod that fits nowhere gets {@code PodScheduled=False/Unschedulable} and is retried.
 */
public final class PodScheduler implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(PodScheduler.class.getName());
    private static final long RETRY_MILLIS = 500;

    private final KubernetesClient client;
    private final SharedIndexInformer<Pod> pods;
    private final SharedIndexInformer<Node> nodes;
    private final SharedIndexInformer<PersistentVolumeClaim> claims;
    private final Map<String, String> assumed = new ConcurrentHashMap<>();
    private final Map<String, String> reported = new ConcurrentHashMap<>();
    private final Thread loop;
    private boolean wake;
    private volatile boolean closed;

    public PodScheduler(KubernetesClient client) {
        this.client = client;
        ResourceEventHandler<Object> onChange = new ResourceEventHandler<>() {
            @Override
            public void onAdd(Object obj) {
                wake();
            }

            @Override
            public void onUpdate(Object oldObj, Object newObj) {
                wake();
            }

            @Override
            public void onDelete(Object obj, boolean deletedFinalStateUnknown) {
                wake();
            }
        };
        this.pods = client.pods().inAnyNamespace().inform(cast(onChange), 0);
        this.nodes = client.nodes().inform(cast(onChange), 0);
        this.claims = client.persistentVolumeClaims().inAnyNamespace().inform(cast(onChange), 0);
        this.loop = Thread.ofPlatform().daemon().name("pod-scheduler").start(this::run);
    }

    @SuppressWarnings("unchecked")
    private static <T> ResourceEventHandler<T> cast(ResourceEventHandler<Object> handler) {
        return (ResourceEventHandler<T>) (ResourceEventHandler<?>) handler;
    }

    private synchronized void wake() {
        wake = true;
        notifyAll();
    }

    private void run() {
        while (!closed) {
            try {
                scheduleAll();
                synchronized (this) {
                    if (!wake) {
                        wait(RETRY_MILLIS);
                    }
                    wake = false;
                }
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "scheduling pass failed", e);
            }
        }
    }

    private void scheduleAll() {
        List<Pod> all = pods.getStore().list();
        assumed.keySet()
                .removeIf(uid -> all.stream()
                        .noneMatch(pod -> pod.getMetadata().getUid().equals(uid)
                                && pod.getSpec().getNodeName() == null));
        for (Pod pod : all) {
            if (pending(pod) && !assumed.containsKey(pod.getMetadata().getUid())) {
                schedule(pod, all);
            }
        }
    }

    private static boolean pending(Pod pod) {
        String scheduler = Objects.requireNonNullElse(pod.getSpec().getSchedulerName(), "default-scheduler");
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        return (pod.getSpec().getNodeName() == null
                        || pod.getSpec().getNodeName().isEmpty())
                && pod.getMetadata().getDeletionTimestamp() == null
                && "default-scheduler".equals(scheduler)
                && !"Succeeded".equals(phase)
                && !"Failed".equals(phase);
    }

    private void schedule(Pod pod, List<Pod> all) {
        Optional<String> claimProblem = unboundClaim(pod);
        SchedulingPolicy.Decision decision = claimProblem
                .map(problem -> new SchedulingPolicy.Decision(Optional.empty(), problem))
                .orElseGet(() -> SchedulingPolicy.choose(pod, nodes.getStore().list(), placed(all)));
        if (decision.node().isEmpty()) {
            reportUnschedulable(pod, decision.reason());
            return;
        }
        String node = decision.node().get();
        Binding binding = new BindingBuilder()
                .withNewMetadata()
                .withName(pod.getMetadata().getName())
                .withNamespace(pod.getMetadata().getNamespace())
                .withUid(pod.getMetadata().getUid())
                .endMetadata()
                .withNewTarget()
                .withApiVersion("v1")
                .withKind("Node")
                .withName(node)
                .endTarget()
                .build();
        try {
            client.bindings()
                    .inNamespace(pod.getMetadata().getNamespace())
                    .resource(binding)
                    .create();
            assumed.put(pod.getMetadata().getUid(), node);
            reported.remove(pod.getMetadata().getUid());
            LOG.log(
                    Level.DEBUG,
                    "bound {0}/{1} to {2}",
                    pod.getMetadata().getNamespace(),
                    pod.getMetadata().getName(),
                    node);
        } catch (KubernetesClientException e) {
            LOG.log(Level.DEBUG, "binding {0} failed: {1}", pod.getMetadata().getName(), e.getMessage());
        }
    }

    private List<SchedulingPolicy.Placed> placed(List<Pod> all) {
        List<SchedulingPolicy.Placed> placed = new ArrayList<>();
        for (Pod pod : all) {
            String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
            if ("Succeeded".equals(phase) || "Failed".equals(phase)) {
                continue;
            }
            String node = pod.getSpec().getNodeName();
            if (node == null || node.isEmpty()) {
                node = assumed.get(pod.getMetadata().getUid());
            }
            if (node != null && !node.isEmpty()) {
                placed.add(new SchedulingPolicy.Placed(pod, node));
            }
        }
        return placed;
    }

    private Optional<String> unboundClaim(Pod pod) {
        for (Volume volume : Objects.requireNonNullElse(pod.getSpec().getVolumes(), List.<Volume>of())) {
            if (volume.getPersistentVolumeClaim() == null) {
                continue;
            }
            String claimName = volume.getPersistentVolumeClaim().getClaimName();
            PersistentVolumeClaim claim =
                    claims.getStore().getByKey(pod.getMetadata().getNamespace() + "/" + claimName);
            if (claim == null) {
                return Optional.of("persistentvolumeclaim \"" + claimName + "\" not found");
            }
            if (claim.getStatus() == null || !"Bound".equals(claim.getStatus().getPhase())) {
                return Optional.of("pod has unbound immediate PersistentVolumeClaims");
            }
        }
        return Optional.empty();
    }

    private void reportUnschedulable(Pod pod, String reason) {
        String uid = pod.getMetadata().getUid();
        if (reason.equals(reported.get(uid))) {
            return;
        }
        reported.put(uid, reason);
        var condition = new PodConditionBuilder()
                .withType("PodScheduled")
                .withStatus("False")
                .withReason("Unschedulable")
                .withMessage(reason)
                .withLastTransitionTime(
                        DateTimeFormatter.ISO_INSTANT.format(Instant.now().truncatedTo(ChronoUnit.SECONDS)))
                .build();
        String patch = Serialization.asJson(
                Map.of("metadata", Map.of("uid", uid), "status", Map.of("conditions", List.of(condition))));
        try {
            client.pods()
                    .inNamespace(pod.getMetadata().getNamespace())
                    .withName(pod.getMetadata().getName())
                    .subresource("status")
                    .patch(PatchContext.of(PatchType.JSON_MERGE), patch);
        } catch (KubernetesClientException e) {
            LOG.log(
                    Level.DEBUG,
                    "cannot report {0} unschedulable: {1}",
                    pod.getMetadata().getName(),
                    e.getMessage());
        }
    }

    @Override
    public void close() {
        closed = true;
        loop.interrupt();
        pods.close();
        nodes.close();
        claims.close();
    }
}
