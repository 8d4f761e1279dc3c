package io.etcdoperator.localkube.simetcd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcd.jetcd.api.ClusterGrpc;
import io.etcd.jetcd.api.MaintenanceGrpc;
import io.etcd.jetcd.api.MemberAddRequest;
import io.etcd.jetcd.api.MemberListRequest;
import io.etcd.jetcd.api.MemberRemoveRequest;
import io.etcd.jetcd.api.StatusRequest;
import io.etcd.jetcd.api.StatusResponse;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCalls;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The simulated etcd over gRPC on loopback, as the operator's etcd port reaches it. */
class SimulatedEtcdTest {

    private final SimulatedEtcd etcd = new SimulatedEtcd(Clock.systemUTC(), EtcdRules.etcdDefaults());
    private final List<AutoCloseable> opened = new ArrayList<>();

    @AfterEach
    void close() throws Exception {
        for (AutoCloseable c : opened.reversed()) {
            c.close();
        }
        etcd.close();
    }

    @Test
    void aSeedServesMembershipAndStatusAndAJoinerNeedsMemberAddFirst() throws Exception {
        int seedPort = freePort();
        int joinerPort = freePort();
        SimulatedEtcd.RunningMember seed = start(flags("m0", seedPort, true)).orElseThrow();
        ManagedChannel channel = channel(seedPort);

        var list = ClusterGrpc.newBlockingStub(channel).memberList(MemberListRequest.getDefaultInstance());
        assertThat(list.getHeader().getClusterId()).isEqualTo(seed.cluster().clusterId());
        assertThat(list.getMembersList())
                .singleElement()
                .satisfies(m -> assertThat(m.getName()).isEqualTo("m0"));

        assertThat(start(flags("m1", joinerPort, false))).as("unknown peer URL").isEmpty();
        var added = ClusterGrpc.newBlockingStub(channel)
                .memberAdd(MemberAddRequest.newBuilder()
                        .addPeerURLs(flags("m1", joinerPort, false).peerUrl())
                        .setIsLearner(true)
                        .build());
        assertThat(added.getMember().getIsLearner()).isTrue();
        assertThat(added.getMembersList()).hasSize(2);

        MemberRemoveRequest promote = MemberRemoveRequest.newBuilder()
                .setID(added.getMember().getID())
                .build();
        assertThatThrownBy(() -> ClientCalls.blockingUnaryCall(
                        channel, ClusterService.MEMBER_PROMOTE, CallOptions.DEFAULT, promote))
                .isInstanceOfSatisfying(
                        StatusRuntimeException.class,
                        e -> assertThat(e.getStatus().getDescription())
                                .isEqualTo(
                                        "etcdserver: can only promote a learner member which is in sync with leader"));

        assertThat(start(flags("m1", joinerPort, false))).isPresent();
        StatusResponse status =
                MaintenanceGrpc.newBlockingStub(channel(joinerPort)).status(StatusRequest.getDefaultInstance());
        assertThat(status.getLeader()).isEqualTo(seed.memberId());
        assertThat(status.getHeader().getMemberId()).isEqualTo(added.getMember().getID());
        assertThat(status.getVersion()).isEqualTo("3.5.16");
        assertThat(status.getUnknownFields().getField(10).getVarintList()).containsExactly(1L);
    }

    private Optional<SimulatedEtcd.RunningMember> start(EtcdFlags flags) {
        var running = etcd.start(flags, "127.0.0.1");
        running.ifPresent(opened::add);
        return running;
    }

    private static EtcdFlags flags(String name, int clientPort, boolean seed) {
        List<String> args = List.of(
                "--name=" + name,
                "--initial-advertise-peer-urls=http://" + name + ":2380",
                "--advertise-client-urls=http://127.0.0.1:" + clientPort,
                "--initial-cluster-state=" + (seed ? "new" : "existing"));
        return EtcdFlags.parse(args, "quay.io/coreos/etcd:v3.5.16").orElseThrow();
    }

    private ManagedChannel channel(int port) {
        ManagedChannel channel =
                NettyChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().build();
        opened.add(channel::shutdownNow);
        return channel;
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
