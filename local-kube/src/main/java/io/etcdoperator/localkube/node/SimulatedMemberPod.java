package io.etcdoperator.localkube.node;

import io.etcdoperator.localkube.network.PodSandbox;
import io.etcdoperator.localkube.simetcd.EtcdFlags;
import io.etcdoperator.localkube.simetcd.SimulatedEtcd;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.api.model.PodIP;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import java.lang.System.Logger.Level;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An etcd member Pod on a node in simulated-etcd mode: no process, but a member of a {@link SimulatedEtcd} cluster
 * served on the Pod's IP, and the status a kubelet would report (Running; Ready while the member is up and its
 * cluster has a leader, as etcd's /health says). {@link #refresh()} is called periodically by the node.
 */
final class SimulatedMemberPod {

    private static final System.Logger LOG = System.getLogger(SimulatedMemberPod.class.getName());
    static final String CLUSTER_LABEL = "etcd-operator.cozystack.io/cluster";
    static final String ETCD_CONTAINER = "etcd";

    private final SimulatedNode node;
    private final NodeFacilities facilities;
    private final SimulatedEtcd etcd;
    private final String namespace;
    private final String name;
    private final String uid;
    private final Container container;
    private final List<Container> initContainers;
    private final PodStatusPatch statusPatch;
    private final Instant startTime = Instant.now();
    private PodSandbox sandbox;
    private SimulatedEtcd.RunningMember running;
    private Instant readySince;
    private boolean ended;

    SimulatedMemberPod(SimulatedNode node, NodeFacilities facilities, SimulatedEtcd etcd, Pod pod) {
        this.node = node;
        this.facilities = facilities;
        this.etcd = etcd;
        this.namespace = pod.getMetadata().getNamespace();
        this.name = pod.getMetadata().getName();
        this.uid = pod.getMetadata().getUid();
        this.container = etcdContainer(pod).orElseThrow();
        this.initContainers = pod.getSpec().getInitContainers() == null
                ? List.of()
                : pod.getSpec().getInitContainers();
        this.statusPatch = new PodStatusPatch(facilities.client(), namespace, name, uid);
    }

    /** A Pod the operator made for an etcd member: its cluster label and an "etcd" container. */
    static boolean isEtcdMember(Pod pod) {
        Map<String, String> labels = pod.getMetadata().getLabels();
        return labels != null
                && labels.containsKey(CLUSTER_LABEL)
                && etcdContainer(pod).isPresent();
    }

    private static Optional<Container> etcdContainer(Pod pod) {
        return pod.getSpec().getContainers().stream()
                .filter(c -> ETCD_CONTAINER.equals(c.getName()))
                .findFirst();
    }

    String uid() {
        return uid;
    }

    /** Starts the member if it is not up yet (a joiner waits until MemberAdd named its peer URL), then reports. */
    synchronized void refresh() {
        if (ended) {
            return;
        }
        if (sandbox == null) {
            sandbox = facilities.network().allocate(namespace + "_" + name);
        }
        if (running == null) {
            try {
                Optional<EtcdFlags> flags = EtcdFlags.parse(
                        container.getArgs() == null ? List.of() : container.getArgs(), container.getImage());
                running = flags.flatMap(f -> etcd.start(f, sandbox.ip())).orElse(null);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "simulated etcd member " + namespace + "/" + name + " did not start", e);
            }
        }
        publish();
    }

    /** The Pod is being deleted: the member goes down at once and the Pod object is removed. */
    synchronized void terminate() {
        if (ended) {
            return;
        }
        end();
        node.deletePod(namespace, name, uid);
    }

    /** Stops serving without touching the Pod object (node shutdown, or the Pod is already gone). */
    synchronized void end() {
        if (ended) {
            return;
        }
        ended = true;
        if (running != null) {
            try {
                running.close();
            } catch (Exception e) {
                LOG.log(Level.WARNING, "cannot stop simulated member " + namespace + "/" + name, e);
            }
            running = null;
        }
        if (sandbox != null) {
            sandbox.close();
        }
        node.forgetSimulated(this);
    }

    private void publish() {
        boolean ready = running != null && running.cluster().hasLeader();
        if (ready && readySince == null) {
            readySince = Instant.now();
        } else if (!ready) {
            readySince = null;
        }
        if (!statusPatch.send(status(ready))) {
            end();
        }
    }

    private PodStatus status(boolean ready) {
        String since = KubeTime.format(ready ? readySince : startTime);
        String readyText = ready ? "True" : "False";
        List<PodCondition> conditions = List.of(
                condition("Initialized", "True", KubeTime.format(startTime)),
                condition("Ready", readyText, since),
                condition("ContainersReady", readyText, since),
                condition("PodScheduled", "True", KubeTime.format(startTime)));
        ContainerStatus main = new ContainerStatusBuilder()
                .withName(ETCD_CONTAINER)
                .withImage(container.getImage())
                .withImageID(container.getImage())
                .withContainerID("simulated://" + uid)
                .withReady(ready)
                .withStarted(running != null)
                .withRestartCount(0)
                .withNewState()
                .withNewRunning()
                .withStartedAt(KubeTime.format(startTime))
                .endRunning()
                .endState()
                .build();
        List<ContainerStatus> inits = initContainers.stream()
                .map(c -> new ContainerStatusBuilder()
                        .withName(c.getName())
                        .withImage(c.getImage())
                        .withImageID(c.getImage())
                        .withReady(true)
                        .withRestartCount(0)
                        .withNewState()
                        .withNewTerminated()
                        .withExitCode(0)
                        .withReason("Completed")
                        .endTerminated()
                        .endState()
                        .build())
                .toList();
        return new PodStatusBuilder()
                .withPhase("Running")
                .withConditions(conditions)
                .withHostIP(node.hostIp())
                .withPodIP(sandbox.ip())
                .withPodIPs(new PodIP(sandbox.ip()))
                .withStartTime(KubeTime.format(startTime))
                .withContainerStatuses(main)
                .withInitContainerStatuses(inits)
                .build();
    }

    private static PodCondition condition(String type, String status, String since) {
        return new PodConditionBuilder()
                .withType(type)
                .withStatus(status)
                .withLastTransitionTime(since)
                .build();
    }
}
