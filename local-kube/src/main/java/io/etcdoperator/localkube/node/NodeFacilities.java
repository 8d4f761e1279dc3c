package io.etcdoperator.localkube.node;

import io.etcdoperator.localkube.network.ClusterHosts;
import io.etcdoperator.localkube.network.PodNetwork;
import io.etcdoperator.localkube.simetcd.SimulatedEtcd;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.util.Optional;

/**
 * What the machine provides to every simulated node of one local cluster: the API client, the Pod network, the
 * hosts files, the image catalogue, host mount points, the restart back-off, the dir for Pod state and logs, and
 * in simulated-etcd mode the simulated etcd that answers for etcd member Pods instead of processes.
 */
public record NodeFacilities(
        KubernetesClient client,
        PodNetwork network,
        ClusterHosts hosts,
        ImageCatalogue images,
        MountPoints mountPoints,
        RestartBackOff backOff,
        Path workDir,
        Optional<SimulatedEtcd> simulatedEtcd) {}
