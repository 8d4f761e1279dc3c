package io.etcdoperator.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.etcdoperator.etcd.EtcdConnection;
import io.etcdoperator.etcd.JetcdEtcdAdmin;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real three-member etcd: the agent, given the followers first and the leader last, streams from the leader and its
 * JSON line names it, with a revision no older than the last write.
 */
class SnapshotSourceIT {

    @TempDir
    Path tmp;

    @Test
    void streamsFromTheLeaderEvenWhenFollowersAreListedFirst() throws Exception {
        var release = EtcdRelease.V3_5_16;
        List<EtcdServer.Member> members =
                List.of(EtcdServer.Member.reserve("a"), EtcdServer.Member.reserve("b"), EtcdServer.Member.reserve("c"));
        String initialCluster =
                members.stream().map(EtcdServer.Member::initialCluster).collect(Collectors.joining(","));
        List<CompletableFuture<EtcdServer>> starting = members.stream()
                .map(m -> CompletableFuture.supplyAsync(
                        () -> EtcdServer.start(release, m, initialCluster, tmp.resolve(m.name()), "three-token")))
                .toList();
        List<EtcdServer> servers = new ArrayList<>();
        try {
            for (var future : starting) {
                servers.add(future.join());
            }
            try (var keys = new Keys(servers.getFirst().clientUrl())) {
                keys.fill("/src/", 50, 64);
            }
            List<URI> urls = servers.stream().map(EtcdServer::clientUrl).toList();
            URI leader;
            try (var admin = JetcdEtcdAdmin.FACTORY.open(EtcdConnection.plaintext(urls))) {
                leader = urls.stream()
                        .filter(u -> admin.status(u).isLeader())
                        .findFirst()
                        .orElseThrow();
            }
            List<URI> leaderLast =
                    new ArrayList<>(urls.stream().filter(u -> !u.equals(leader)).toList());
            leaderLast.add(leader);

            AgentRun saved = AgentRun.of(
                    Map.of(),
                    "snapshot",
                    "save",
                    "--endpoints",
                    leaderLast.stream().map(URI::toString).collect(Collectors.joining(",")),
                    "--name",
                    "three",
                    "--uid",
                    "uid-three",
                    "--dir",
                    tmp.resolve("pvc").toString(),
                    "--termination-log",
                    tmp.resolve("no-such-log").toString());

            assertThat(saved.exitCode()).as(saved.json()).isZero();
            assertThat(saved.field("endpoint")).isEqualTo(leader.toString());
            assertThat(saved.json()).contains("\"leader\":true");
            // a new cluster starts at revision 1 and each of the 50 puts adds one
            assertThat(Long.parseLong(saved.field("revision"))).isGreaterThanOrEqualTo(51);
        } finally {
            starting.forEach(f -> f.thenAccept(EtcdServer::close)); // now, or once a member still starting is up
        }
    }
}
