package io.etcdoperator.localkube.simetcd;

import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.netty.NettyServerBuilder;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;

/** One member's client URL: a gRPC server on the Pod's IP and port serving the cluster's state as that member. */
final class MemberEndpoint implements AutoCloseable {

    private final Server server;

    private MemberEndpoint(Server server) {
        this.server = server;
    }

    static MemberEndpoint serve(
            InetSocketAddress address, MemberContext member, EventLoopGroup boss, EventLoopGroup workers) {
        Server server = NettyServerBuilder.forAddress(address)
                .channelType(NioServerSocketChannel.class)
                .bossEventLoopGroup(boss)
                .workerEventLoopGroup(workers)
                .directExecutor() // every call is a short synchronized read or change of the cluster state
                .addService(
                        ServerInterceptors.intercept(new ClusterService(member).definition(), MemberContext.tokens()))
                .addService(ServerInterceptors.intercept(new MaintenanceService(member), MemberContext.tokens()))
                .addService(ServerInterceptors.intercept(new KvService(member), MemberContext.tokens()))
                .addService(ServerInterceptors.intercept(new AuthService(member), MemberContext.tokens()))
                .build();
        try {
            server.start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot serve simulated etcd on " + address, e);
        }
        return new MemberEndpoint(server);
    }

    @Override
    public void close() {
        server.shutdownNow();
    }
}
