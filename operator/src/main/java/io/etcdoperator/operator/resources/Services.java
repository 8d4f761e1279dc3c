package io.etcdoperator.operator.resources;

import io.etcdoperator.api.v1alpha2.AdditionalMetadata;
import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.ServicePortBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** The headless peer Service (per-member DNS, also before Ready) and the client Service. */
public final class Services {

    private Services() {}

    public static Service headless(EtcdCluster cluster, AdditionalMetadata metadata) {
        return base(cluster, Names.headlessService(cluster), metadata)
                .withNewSpec()
                .withClusterIP("None")
                .withPublishNotReadyAddresses(true)
                .withSelector(Labels.selector(cluster.getMetadata().getName()))
                .withPorts(port("client", Names.CLIENT_PORT), port("peer", Names.PEER_PORT))
                .endSpec()
                .build();
    }

    public static Service client(EtcdCluster cluster, AdditionalMetadata metadata) {
        return base(cluster, Names.clientService(cluster), metadata)
                .withNewSpec()
                .withType("ClusterIP")
                .withSelector(Labels.voters(cluster.getMetadata().getName())) // a learner refuses most client RPCs
                .withPorts(port("client", Names.CLIENT_PORT))
                .endSpec()
                .build();
    }

    /** The fields the operator owns on an existing Service; anything else users added is left alone. */
    public static boolean ownedFieldsMatch(Service actual, Service desired) {
        var a = actual.getSpec();
        var d = desired.getSpec();
        return d.getSelector().equals(a.getSelector())
                && Objects.equals(d.getPublishNotReadyAddresses(), a.getPublishNotReadyAddresses())
                && d.getPorts().stream().allMatch(p -> hasPort(a.getPorts(), p));
    }

    /** Desired ports upserted by name; other ports kept. */
    public static List<ServicePort> mergePorts(List<ServicePort> actual, List<ServicePort> desired) {
        List<ServicePort> out = new ArrayList<>(desired);
        actual.stream()
                .filter(p -> desired.stream().noneMatch(d -> d.getName().equals(p.getName())))
                .forEach(out::add);
        return out;
    }

    private static boolean hasPort(List<ServicePort> ports, ServicePort wanted) {
        return ports != null
                && ports.stream()
                        .anyMatch(p -> wanted.getName().equals(p.getName())
                                && wanted.getPort().equals(p.getPort())
                                && wanted.getTargetPort().equals(p.getTargetPort()));
    }

    private static ServiceBuilder base(EtcdCluster cluster, String name, AdditionalMetadata metadata) {
        return new ServiceBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(cluster.getMetadata().getNamespace())
                .withLabels(Labels.withUserLabels(
                        Labels.cluster(cluster.getMetadata().getName()), metadata))
                .withAnnotations(Labels.withUserAnnotations(Map.of(), metadata))
                .withOwnerReferences(Owners.controller(cluster))
                .endMetadata();
    }

    private static ServicePort port(String name, int port) {
        return new ServicePortBuilder()
                .withName(name)
                .withPort(port)
                .withTargetPort(new IntOrString(port))
                .withProtocol("TCP")
                .build();
    }
}
