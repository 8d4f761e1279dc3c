package io.etcdoperator.localkube.node;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;

/**
 * A simulated kubelet: registers a Node, renews its Lease in {@code kube-node-lease} and reports a healthy status,
 * runs the Pods bound to it as local processes (one {@link PodWorker} each) and serves their logs. {@link #stop()}
 * and {@link #start()} simulate the machine going down and coming back.
 */
public final class SimulatedNode implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(SimulatedNode.class.getName());
    private static final String LEASE_NAMESPACE = "kube-node-lease";
    private static final int LEASE_SECONDS = 20;
    private static final Duration REFRESH = Duration.ofMillis(500);

    private final NodeFacilities facilities;
    private final NodeOptions options;
    private final KubernetesClient client;
    private final KubeletServer server;
    private final Map<String, PodWorker> workers = new ConcurrentHashMap<>();
    private final Map<String, SimulatedMemberPod> simulated = new ConcurrentHashMap<>();
    private ScheduledExecutorService simulatedRefresh;
    private final Set<String> finished = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService heartbeats;
    private volatile boolean stopped;
    private volatile Instant readySince = Instant.now();
    private SharedIndexInformer<Pod> pods;

    public SimulatedNode(NodeFacilities facilities, NodeOptions options, SSLContext kubeletTls) {
        this.facilities = facilities;
        this.options = options;
        this.client = facilities.client();
        this.server = new KubeletServer(this, kubeletTls);
        this.heartbeats = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().daemon().name("heartbeat-" + options.name()).factory());
    }

    private volatile KubernetesServiceRelay kubernetesService;

    /** Registers the Node and starts heartbeats and the Pod watch; returns once the Node reports Ready. */
    public SimulatedNode register() {
        String bridge = facilities.network().hostAddress();
        if (!bridge.startsWith("127.")) {
            kubernetesService = KubernetesServiceRelay.start(
                    bridge, URI.create(client.getMasterUrl().toString()));
        }
        try {
            client.nodes().resource(NodeObjects.node(options)).create();
        } catch (KubernetesClientException e) {
            if (e.getCode() != 409) {
                throw e;
            }
            client.nodes().withName(options.name()).edit(node -> {
                node.getMetadata().getLabels().putAll(NodeObjects.labels(options));
                return node;
            });
        }
        heartbeat();
        heartbeats.scheduleWithFixedDelay(
                this::heartbeatQuietly,
                options.heartbeat().toMillis(),
                options.heartbeat().toMillis(),
                TimeUnit.MILLISECONDS);
        pods = client.pods()
                .inAnyNamespace()
                .withField("spec.nodeName", options.name())
                .inform(new PodEvents(), 0);
        LOG.log(Level.INFO, "node {0} registered (kubelet port {1})", options.name(), server.port());
        return this;
    }

    public String name() {
        return options.name();
    }

    public NodeOptions options() {
        return options;
    }

    /** The node's InternalIP, which is also every Pod's hostIP. */
    public String hostIp() {
        return NodeObjects.HOST_IP;
    }

    /** How this node's Pods reach the API server as the kubernetes Service; empty with loopback Pod addresses. */
    Optional<KubernetesServiceRelay> kubernetesService() {
        return Optional.ofNullable(kubernetesService);
    }

    public int kubeletPort() {
        return server.port();
    }

    public boolean running() {
        return !stopped;
    }

    private void heartbeatQuietly() {
        try {
            heartbeat();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "heartbeat of node " + options.name() + " failed", e);
        }
    }

    private synchronized void heartbeat() {
        if (stopped) {
            return;
        }
        Instant now = Instant.now();
        String status =
                Serialization.asJson(Map.of("status", NodeObjects.status(options, server.port(), now, readySince)));
        client.nodes()
                .withName(options.name())
                .subresource("status")
                .patch(PatchContext.of(PatchType.JSON_MERGE), status);
        renewLease(now);
    }

    private void renewLease(Instant now) {
        ZonedDateTime renewed = ZonedDateTime.ofInstant(now, ZoneOffset.UTC);
        var leases = client.leases().inNamespace(LEASE_NAMESPACE);
        Lease existing = leases.withName(options.name()).get();
        if (existing == null) {
            String uid =
                    client.nodes().withName(options.name()).get().getMetadata().getUid();
            Lease lease = NodeObjects.lease(options.name(), uid, LEASE_SECONDS, renewed);
            leases.resource(lease).create();
        } else {
            existing.getSpec().setRenewTime(renewed);
            leases.resource(existing).update();
        }
    }

    /** Simulates the machine going down: every container is killed, heartbeats and status updates stop. */
    public void stop() {
        synchronized (this) {
            stopped = true;
        }
        workers.values().forEach(PodWorker::halt);
        LOG.log(Level.INFO, "node {0} stopped", options.name());
    }

    /** Brings a stopped node back: heartbeats resume and its Pods' containers restart per their policy. */
    public void start() {
        synchronized (this) {
            stopped = false;
            readySince = Instant.now();
        }
        heartbeat();
        workers.values().forEach(PodWorker::resume);
        LOG.log(Level.INFO, "node {0} started again", options.name());
    }

    Optional<PodWorker> worker(String namespace, String name) {
        return workers.values().stream()
                .filter(worker ->
                        worker.namespace().equals(namespace) && worker.name().equals(name))
                .findFirst();
    }

    /** The Pod's worker; throws if the Pod does not run on this node. */
    PodWorker requireWorker(String namespace, String name) {
        return worker(namespace, name)
                .orElseThrow(() -> new IllegalArgumentException(
                        "pod " + namespace + "/" + name + " does not run on node " + options.name()));
    }

    public boolean runs(String namespace, String name) {
        return worker(namespace, name).isPresent();
    }

    /** SIGKILL to the Pod's containers; they restart per the Pod's restartPolicy. */
    public void killContainers(String namespace, String pod) {
        requireWorker(namespace, pod).killContainers();
    }

    /** Evicts the Pod as the kubelet does under node pressure: it ends Failed/Evicted and stays until deleted. */
    public void evict(String namespace, String pod, String message) {
        requireWorker(namespace, pod).evict(message);
    }

    /** SIGSTOP ({@code freeze}) or SIGCONT to every process of the Pod. */
    public void freeze(String namespace, String pod, boolean freeze) {
        requireWorker(namespace, pod).signalContainers(freeze ? "STOP" : "CONT");
    }

    /** Takes the Pod off the network (its host-side link goes down), or puts it back. */
    public void disconnect(String namespace, String pod, boolean disconnect) {
        var sandbox = requireWorker(namespace, pod).sandbox();
        if (disconnect) {
            sandbox.cut();
        } else {
            sandbox.heal();
        }
    }

    /** Deletes the contents of one of the Pod's volumes (for a PVC: its directory). */
    public void wipeVolume(String namespace, String pod, String volume) {
        requireWorker(namespace, pod).wipeVolume(volume);
    }

    /** The Pod's IP, once its sandbox exists. */
    public Optional<String> podIp(String namespace, String pod) {
        return worker(namespace, pod).flatMap(PodWorker::ip);
    }

    /** Runs a command in a container of the Pod (its network, mounts and env) and returns the exit code. */
    public int exec(String namespace, String pod, String container, List<String> command, Duration timeout) {
        PodWorker worker = requireWorker(namespace, pod);
        return worker.exec(worker.container(container), command, timeout);
    }

    void forget(PodWorker worker) {
        finished.add(worker.uid());
        workers.remove(worker.uid());
    }

    /** Removes the Pod object once its processes are gone, only if it is still the same Pod (same uid). */
    void deletePod(String namespace, String name, String uid) {
        String url = client.getMasterUrl().toString().replaceAll("/$", "") + "/api/v1/namespaces/" + namespace
                + "/pods/" + name;
        Map<String, Object> options = Map.of(
                "apiVersion",
                "v1",
                "kind",
                "DeleteOptions",
                "gracePeriodSeconds",
                0,
                "preconditions",
                Map.of("uid", uid));
        try {
            client.raw(url, "DELETE", options);
        } catch (KubernetesClientException e) {
            if (e.getCode() != 404 && e.getCode() != 409) {
                LOG.log(Level.WARNING, "cannot delete pod " + namespace + "/" + name, e);
            }
        }
    }

    private void onPod(Pod pod) {
        String uid = pod.getMetadata().getUid();
        if (finished.contains(uid)) {
            return;
        }
        if (facilities.simulatedEtcd().isPresent() && SimulatedMemberPod.isEtcdMember(pod)) {
            onSimulatedMember(pod);
            return;
        }
        PodWorker worker = workers.get(uid);
        if (worker == null) {
            if (pod.getMetadata().getDeletionTimestamp() != null) {
                deletePod(pod.getMetadata().getNamespace(), pod.getMetadata().getName(), uid);
                return;
            }
            String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
            if ("Succeeded".equals(phase) || "Failed".equals(phase)) {
                return;
            }
            worker = new PodWorker(this, facilities, pod, stopped);
            workers.put(uid, worker);
            worker.start();
        }
        worker.update(pod);
    }

    /** Simulated-etcd mode: the member Pod gets no process; it is refreshed every {@code REFRESH} until deleted. */
    private synchronized void onSimulatedMember(Pod pod) {
        String uid = pod.getMetadata().getUid();
        SimulatedMemberPod member = simulated.get(uid);
        if (pod.getMetadata().getDeletionTimestamp() != null) {
            if (member != null) {
                member.terminate();
            } else {
                deletePod(pod.getMetadata().getNamespace(), pod.getMetadata().getName(), uid);
            }
            return;
        }
        if (member != null) {
            return;
        }
        if (simulatedRefresh == null) {
            simulatedRefresh = Executors.newScheduledThreadPool(
                    2,
                    Thread.ofPlatform()
                            .daemon()
                            .name("simulated-members-" + options.name() + "-", 0)
                            .factory());
            simulatedRefresh.scheduleWithFixedDelay(
                    this::refreshSimulated, 0, REFRESH.toMillis(), TimeUnit.MILLISECONDS);
        }
        SimulatedMemberPod created = new SimulatedMemberPod(
                this, facilities, facilities.simulatedEtcd().get(), pod);
        simulated.put(uid, created);
        simulatedRefresh.execute(created::refresh);
    }

    private void refreshSimulated() {
        if (stopped) {
            return;
        }
        for (SimulatedMemberPod member : simulated.values()) {
            try {
                member.refresh();
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "cannot refresh simulated member " + member.uid(), e);
            }
        }
    }

    void forgetSimulated(SimulatedMemberPod member) {
        finished.add(member.uid());
        simulated.remove(member.uid());
    }

    @Override
    public void close() {
        heartbeats.shutdownNow();
        if (simulatedRefresh != null) {
            simulatedRefresh.shutdownNow();
        }
        List.copyOf(simulated.values()).forEach(SimulatedMemberPod::end);
        if (kubernetesService != null) {
            kubernetesService.close();
        }
        if (pods != null) {
            pods.close();
        }
        server.close();
        List<PodWorker> running = List.copyOf(workers.values());
        running.forEach(PodWorker::shutdown);
        for (PodWorker worker : running) {
            try {
                worker.join(Duration.ofSeconds(15));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private final class PodEvents implements ResourceEventHandler<Pod> {
        @Override
        public void onAdd(Pod pod) {
            onPod(pod);
        }

        @Override
        public void onUpdate(Pod oldPod, Pod newPod) {
            onPod(newPod);
        }

        @Override
        public void onDelete(Pod pod, boolean deletedFinalStateUnknown) {
            PodWorker worker = workers.get(pod.getMetadata().getUid());
            if (worker != null) {
                worker.gone();
            }
            SimulatedMemberPod member = simulated.get(pod.getMetadata().getUid());
            if (member != null) {
                member.end();
            }
        }
    }
}
