package io.etcdoperator.localkube.node;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeStatus;
import io.fabric8.kubernetes.api.model.NodeStatusBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.LinkedHashMap;
import java.util.Map;

/** The Node object and its status as a kubelet would report them for a simulated node. */
final class NodeObjects {

    static final String KUBELET_VERSION = "v1.20.2";
    static final String HOST_IP = "127.0.0.1";

    private NodeObjects() {}

    static Map<String, String> labels(NodeOptions options) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("kubernetes.io/hostname", options.name());
        labels.put("kubernetes.io/os", "linux");
        labels.put("kubernetes.io/arch", "amd64");
        labels.put("beta.kubernetes.io/os", "linux");
        labels.put("beta.kubernetes.io/arch", "amd64");
        options.zone().ifPresent(zone -> {
            labels.put("topology.kubernetes.io/zone", zone);
            labels.put("failure-domain.beta.kubernetes.io/zone", zone);
        });
        labels.putAll(options.labels());
        return labels;
    }

    static Node node(NodeOptions options) {
        return new NodeBuilder()
                .withNewMetadata()
                .withName(options.name())
                .withLabels(labels(options))
                .endMetadata()
                .withNewSpec()
                .endSpec()
                .build();
    }

    /** A healthy status; {@code now} is the heartbeat written into every condition. */
    static NodeStatus status(NodeOptions options, int kubeletPort, Instant now, Instant readySince) {
        Map<String, Quantity> capacity = Map.of(
                "cpu", new Quantity(Integer.toString(options.cpus())),
                "memory", new Quantity(options.memory()),
                "pods", new Quantity(Integer.toString(options.maxPods())),
                "ephemeral-storage", new Quantity("100Gi"));
        String heartbeat = KubeTime.format(now);
        String since = KubeTime.format(readySince);
        return new NodeStatusBuilder()
                .withCapacity(capacity)
                .withAllocatable(capacity)
                .addNewCondition()
                .withType("MemoryPressure")
                .withStatus("False")
                .withReason("KubeletHasSufficientMemory")
                .withMessage("kubelet has sufficient memory available")
                .withLastHeartbeatTime(heartbeat)
                .withLastTransitionTime(since)
                .endCondition()
                .addNewCondition()
                .withType("DiskPressure")
                .withStatus("False")
                .withReason("KubeletHasNoDiskPressure")
                .withMessage("kubelet has no disk pressure")
                .withLastHeartbeatTime(heartbeat)
                .withLastTransitionTime(since)
                .endCondition()
                .addNewCondition()
                .withType("PIDPressure")
                .withStatus("False")
                .withReason("KubeletHasSufficientPID")
                .withMessage("kubelet has sufficient PID available")
                .withLastHeartbeatTime(heartbeat)
                .withLastTransitionTime(since)
                .endCondition()
                .addNewCondition()
                .withType("Ready")
                .withStatus("True")
                .withReason("KubeletReady")
                .withMessage("simulated kubelet is posting ready status")
                .withLastHeartbeatTime(heartbeat)
                .withLastTransitionTime(since)
                .endCondition()
                .addNewAddress()
                .withType("InternalIP")
                .withAddress(HOST_IP)
                .endAddress()
                .addNewAddress()
                .withType("Hostname")
                .withAddress(options.name())
                .endAddress()
                .withNewDaemonEndpoints()
                .withNewKubeletEndpoint()
                .withPort(kubeletPort)
                .endKubeletEndpoint()
                .endDaemonEndpoints()
                .withNewNodeInfo()
                .withMachineID(options.name())
                .withSystemUUID(options.name())
                .withBootID(since)
                .withKernelVersion(System.getProperty("os.version"))
                .withOsImage("local-kube simulated node")
                .withContainerRuntimeVersion("local-process://1")
                .withKubeletVersion(KUBELET_VERSION)
                .withKubeProxyVersion(KUBELET_VERSION)
                .withOperatingSystem("linux")
                .withArchitecture("amd64")
                .endNodeInfo()
                .build();
    }

    /** The node's heartbeat Lease in kube-node-lease, owned by its Node as the kubelet makes it. */
    static Lease lease(String node, String nodeUid, int leaseSeconds, ZonedDateTime renewed) {
        return new LeaseBuilder()
                .withNewMetadata()
                .withName(node)
                .addNewOwnerReference()
                .withApiVersion("v1")
                .withKind("Node")
                .withName(node)
                .withUid(nodeUid)
                .endOwnerReference()
                .endMetadata()
                .withNewSpec()
                .withHolderIdentity(node)
                .withLeaseDurationSeconds(leaseSeconds)
                .withRenewTime(renewed)
                .endSpec()
                .build();
    }
}
