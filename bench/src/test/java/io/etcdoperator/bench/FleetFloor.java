package io.etcdoperator.bench;

import io.etcdoperator.e2e.E2eEnvironment;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Issue 25's formation floor: what kube-apiserver and the nodes alone need for a fleet's objects. With the operator
 * stopped, copies of one formed cluster's objects (its EtcdCluster, Services, PDB, EtcdMembers and member Pods) are
 * created in fresh namespaces, eight clusters at a time, and the floor ends when every copied Pod runs.
 */
final class FleetFloor {

    private static final int WRITERS = 8;

    record Result(Duration accepted, Duration running, int pods) {}

    private final E2eEnvironment env;
    private final KubernetesClient client;
    private final List<HasMetadata> template = new ArrayList<>();
    private final List<GenericKubernetesResource> custom = new ArrayList<>();

    /** The template: what the operator made for {@code cluster} in namespace {@code ns}, identity stripped. */
    FleetFloor(E2eEnvironment env, String ns, String cluster) {
        this.env = env;
        this.client = env.client();
        custom.add(clean(client.genericKubernetesResources(E2eEnvironment.CLUSTERS)
                .inNamespace(ns)
                .withName(cluster)
                .get()));
        client.genericKubernetesResources(E2eEnvironment.MEMBERS)
                .inNamespace(ns)
                .list()
                .getItems()
                .forEach(m -> custom.add(clean(m)));
        client.services().inNamespace(ns).list().getItems().forEach(s -> template.add(service(s)));
        client.policy()
                .v1beta1()
                .podDisruptionBudget()
                .inNamespace(ns)
                .list()
                .getItems()
                .forEach(p -> template.add(clean(p)));
        client.pods().inNamespace(ns).list().getItems().forEach(p -> template.add(pod(p)));
    }

    /** Creates {@code clusters} copies in namespaces floor-0001.. and waits until all their Pods run. */
    Result measure(int clusters, Duration timeout) throws Exception {
        Instant start = Instant.now();
        try (ExecutorService writers = Executors.newFixedThreadPool(WRITERS)) {
            List<Future<?>> done = new ArrayList<>();
            for (int i = 1; i <= clusters; i++) {
                String ns = String.format("floor-%04d", i);
                done.add(writers.submit(() -> copyInto(ns)));
            }
            for (Future<?> f : done) {
                f.get();
            }
        }
        Duration accepted = Duration.between(start, Instant.now());
        int pods =
                clusters * (int) template.stream().filter(Pod.class::isInstance).count();
        Instant deadline = start.plus(timeout);
        while (running() < pods) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("floor: " + running() + " of " + pods + " Pods running after " + timeout);
            }
            Thread.sleep(Duration.ofSeconds(1)); // polled: one LIST a second, as the fleet's READY poll does
        }
        return new Result(accepted, Duration.between(start, Instant.now()), pods);
    }

    private Void copyInto(String ns) {
        env.namespace(ns);
        for (GenericKubernetesResource r : custom) {
            GenericKubernetesResource copy = client.getKubernetesSerialization().clone(r);
            copy.getMetadata().setNamespace(ns);
            client.resource(copy).create();
        }
        for (HasMetadata r : template) {
            HasMetadata copy = client.getKubernetesSerialization().clone(r);
            copy.getMetadata().setNamespace(ns);
            client.resource(copy).create();
        }
        return null;
    }

    private long running() {
        return client.pods().inAnyNamespace().list().getItems().stream()
                .filter(p -> p.getMetadata().getNamespace().startsWith("floor-"))
                .filter(p -> "Running".equals(p.getStatus().getPhase()))
                .count();
    }

    private static <T extends HasMetadata> T clean(T object) {
        ObjectMeta meta = object.getMetadata();
        meta.setUid(null);
        meta.setResourceVersion(null);
        meta.setCreationTimestamp(null);
        meta.setManagedFields(null);
        meta.setOwnerReferences(null); // the garbage collector would delete a copy whose owner uid does not exist
        meta.setFinalizers(null); // no operator runs to remove them
        meta.setGeneration(null);
        if (object instanceof GenericKubernetesResource g) {
            g.getAdditionalProperties().remove("status");
        }
        return object;
    }

    private static Service service(Service s) {
        Service copy = clean(s);
        if (!"None".equals(s.getSpec().getClusterIP())) {
            copy.getSpec()
                    .setClusterIP(null); // a headless Service stays headless; the others get an address of their own
        }
        copy.getSpec().setClusterIPs(null);
        copy.setStatus(null);
        return copy;
    }

    private static Pod pod(Pod p) {
        Pod copy = clean(p);
        copy.setStatus(null);
        copy.getSpec().setNodeName(null); // the scheduler places the copies, as it placed the operator's Pods
        return copy;
    }
}
