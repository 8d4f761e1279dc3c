package io.etcdoperator.localkube;

import io.etcdoperator.localkube.node.SimulatedNode;
import java.util.List;

/**
 * Faults to inject into a running local cluster, addressed by Pod: kill its containers, freeze and thaw it, cut it
 * off the network and heal it, wipe one of its volumes; and stop or start a whole node.
 */
public final class Faults {

    private final List<SimulatedNode> nodes;

    Faults(List<SimulatedNode> nodes) {
        this.nodes = List.copyOf(nodes);
    }

    /** SIGKILL to every container of the Pod; the node restarts them per restartPolicy (same Pod, same IP). */
    public void killContainers(String namespace, String pod) {
        nodeOf(namespace, pod).killContainers(namespace, pod);
    }

    /** The kubelet evicts the Pod (node pressure): containers killed, phase Failed, reason Evicted, never restarted. */
    public void evict(String namespace, String pod) {
        nodeOf(namespace, pod).evict(namespace, pod, "The node was low on resource: memory.");
    }

    /** SIGSTOP to every process of the Pod: it stays up but stops answering. */
    public void freeze(String namespace, String pod) {
        nodeOf(namespace, pod).freeze(namespace, pod, true);
    }

    public void thaw(String namespace, String pod) {
        nodeOf(namespace, pod).freeze(namespace, pod, false);
    }

    /** Takes the Pod's link to the bridge down: nobody reaches it and it reaches nobody. */
    public void cutNetwork(String namespace, String pod) {
        nodeOf(namespace, pod).disconnect(namespace, pod, true);
    }

    public void healNetwork(String namespace, String pod) {
        nodeOf(namespace, pod).disconnect(namespace, pod, false);
    }

    /** Deletes everything in one of the Pod's volumes, as if its disk had been replaced. */
    public void wipeVolume(String namespace, String pod, String volume) {
        nodeOf(namespace, pod).wipeVolume(namespace, pod, volume);
    }

    /** The machine goes down: its containers are killed and its heartbeats stop. */
    public void stopNode(int index) {
        nodes.get(index).stop();
    }

    public void startNode(int index) {
        nodes.get(index).start();
    }

    /** The node that runs the Pod; throws if none does. */
    public SimulatedNode nodeOf(String namespace, String pod) {
        return nodes.stream()
                .filter(node -> node.runs(namespace, pod))
                .findFirst()
                .orElseThrow(() ->
                        new IllegalArgumentException("pod " + namespace + "/" + pod + " runs on no simulated node"));
    }
}
