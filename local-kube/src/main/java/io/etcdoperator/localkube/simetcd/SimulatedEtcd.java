package io.etcdoperator.localkube.simetcd;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Every simulated etcd cluster of a local Kubernetes, and the member endpoints that serve them. A member started
 * with {@code --initial-cluster-state=new} seeds a cluster (unless it already belongs to one, as after a container
 * restart with its data kept); any other joins the cluster that was told its peer URL by MemberAdd.
 */
public final class SimulatedEtcd implements AutoCloseable {

    private final Clock clock;
    private final EtcdRules rules;
    private final List<SimulatedCluster> clusters = new CopyOnWriteArrayList<>();
    private final EventLoopGroup boss = new NioEventLoopGroup(1);
    private final EventLoopGroup workers = new NioEventLoopGroup(2);

    public SimulatedEtcd(Clock clock, EtcdRules rules) {
        this.clock = clock;
        this.rules = rules;
    }

    /** A member's process as a handle: closing it takes the endpoint down and the member with it. */
    public record RunningMember(SimulatedCluster cluster, long memberId, AutoCloseable endpoint)
            implements AutoCloseable {

        @Override
        public void close() throws Exception {
            cluster.stop(memberId);
            endpoint.close();
        }
    }

    /**
     * Starts the member on {@code ip} (the port of its client URL); empty while no cluster knows its peer URL yet,
     * where etcd would exit and be restarted.
     */
    public synchronized Optional<RunningMember> start(EtcdFlags flags, String ip) {
        Optional<SimulatedCluster> known = clusterOf(flags.peerUrl());
        SimulatedCluster cluster;
        if (known.isPresent()) {
            cluster = known.get();
            cluster.start(flags.peerUrl(), flags.name(), flags.clientUrl());
        } else if (flags.newCluster()) {
            cluster = SimulatedCluster.seed(
                    clock, rules, flags.version(), flags.name(), flags.peerUrl(), flags.clientUrl());
            clusters.add(cluster);
        } else {
            return Optional.empty();
        }
        long memberId = cluster.memberByPeerUrl(flags.peerUrl()).orElseThrow();
        int port = URI.create(flags.clientUrl()).getPort();
        try {
            MemberEndpoint endpoint = MemberEndpoint.serve(
                    new InetSocketAddress(ip, port), new MemberContext(cluster, memberId), boss, workers);
            return Optional.of(new RunningMember(cluster, memberId, endpoint));
        } catch (RuntimeException e) {
            cluster.stop(memberId);
            throw e;
        }
    }

    public List<SimulatedCluster> clusters() {
        return List.copyOf(clusters);
    }

    private Optional<SimulatedCluster> clusterOf(String peerUrl) {
        return clusters.stream()
                .filter(c -> c.memberByPeerUrl(peerUrl).isPresent())
                .findFirst();
    }

    @Override
    public void close() {
        boss.shutdownGracefully();
        workers.shutdownGracefully();
    }
}
