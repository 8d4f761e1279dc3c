package io.etcdoperator.operator.cluster;

import io.etcdoperator.operator.planner.ObservedMember.NodeDown;
import io.etcdoperator.operator.resources.MemberPodStatus;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The nodes under member Pods that are not ready, and since when each is not Ready itself. A Pod that is ready needs
 * no look (the node lifecycle controller marks a NotReady node's Pods not ready), so a healthy cluster reads no Node.
 * Without RBAC on nodes the operator says so once and goes on without node-loss repair.
 */
final class NodeReadiness {

    private static final Logger LOG = LoggerFactory.getLogger(NodeReadiness.class);

    private final KubernetesClient client;
    private final AtomicBoolean forbiddenReported = new AtomicBoolean();

    NodeReadiness(KubernetesClient client) {
        this.client = client;
    }

    /** Node name to NodeDown, for the nodes of these Pods that report Ready False or Unknown. */
    Map<String, NodeDown> down(Collection<Pod> pods) {
        Map<String, NodeDown> out = new HashMap<>();
        pods.stream()
                .filter(p -> !MemberPodStatus.ready(p))
                .map(p -> p.getSpec().getNodeName())
                .filter(Objects::nonNull)
                .distinct()
                .forEach(name -> {
                    try {
                        Optional.ofNullable(client.nodes().withName(name).get())
                                .flatMap(NodeReadiness::notReadySince)
                                .ifPresent(since -> out.put(name, new NodeDown(name, since)));
                    } catch (KubernetesClientException e) {
                        if (e.getCode() == 403 && forbiddenReported.compareAndSet(false, true)) {
                            LOG.atWarn()
                                    .addKeyValue("node", name)
                                    .log(
                                            "cannot get nodes (RBAC): members on a node that stops "
                                                    + "are not replaced until their Pods go; grant get on nodes (docs/rbac.md)");
                        } else if (e.getCode() != 403) {
                            LOG.atDebug()
                                    .addKeyValue("node", name)
                                    .addKeyValue("error", e.getMessage())
                                    .log("node not observed");
                        }
                    }
                });
        return out;
    }

    static Optional<Instant> notReadySince(Node node) {
        if (node.getStatus() == null || node.getStatus().getConditions() == null) {
            return Optional.empty();
        }
        return node.getStatus().getConditions().stream()
                .filter(c -> "Ready".equals(c.getType()))
                .filter(c -> !"True".equals(c.getStatus()))
                .findFirst()
                .map(NodeCondition::getLastTransitionTime)
                .filter(t -> t != null && !t.isBlank())
                .map(Instant::parse);
    }
}
