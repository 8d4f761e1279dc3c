package io.etcdoperator.localkube.node;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.lang.System.Logger.Level;
import java.util.List;
import java.util.Map;

/**
 * Writes a Pod's status subresource as the kubelet's status sync does: only when the status differs from what was
 * last written, and only to the same Pod (its uid in the patch). {@link #publish} derives the status from a Pod's
 * containers with {@link PodStatusReport}; {@link #send} takes one built by the caller.
 */
final class PodStatusPatch {

    private static final System.Logger LOG = System.getLogger(PodStatusPatch.class.getName());

    private final KubernetesClient client;
    private final String namespace;
    private final String name;
    private final String uid;
    private final PodStatusReport report = new PodStatusReport();
    private PodStatus published;

    PodStatusPatch(KubernetesClient client, String namespace, String name, String uid) {
        this.client = client;
        this.namespace = namespace;
        this.name = name;
        this.uid = uid;
    }

    /** The QoS class already in the Pod's status, kept as it is: the node does not derive one. */
    static String qosClass(Pod pod) {
        return pod.getStatus() == null ? null : pod.getStatus().getQosClass();
    }

    /** Patches the status if it changed; false when the Pod is gone or replaced (the worker then stops). */
    boolean publish(PodStatusReport.PodView view, List<ContainerSlot> initSlots, List<ContainerSlot> slots) {
        return send(report.build(view, initSlots, slots));
    }

    /**
     * Patches {@code status} as a whole, unless it is what was last written; false when the Pod is gone or replaced
     * (404, or 409/422: the uid no longer matches), and the caller stops reporting. Other failures are logged and
     * retried on the next call. For a status built elsewhere (a {@link SimulatedMemberPod}'s) as for {@link
     * #publish}'s.
     */
    boolean send(PodStatus status) {
        if (status.equals(published)) {
            return true;
        }
        try {
            String patch = Serialization.asJson(Map.of("metadata", Map.of("uid", uid), "status", status));
            client.pods()
                    .inNamespace(namespace)
                    .withName(name)
                    .subresource("status")
                    .patch(PatchContext.of(PatchType.JSON_MERGE), patch);
            published = status;
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404 || e.getCode() == 409 || e.getCode() == 422) {
                LOG.log(Level.DEBUG, "{0}/{1} is gone or replaced; stopping", namespace, name);
                return false;
            }
            LOG.log(Level.WARNING, "cannot update the status of " + namespace + "/" + name, e);
        }
        return true;
    }
}
