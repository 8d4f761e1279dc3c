package io.etcdoperator.snapshot;

import static io.etcdoperator.snapshot.SnapshotSourceTest.A;
import static io.etcdoperator.snapshot.SnapshotSourceTest.B;
import static io.etcdoperator.snapshot.SnapshotSourceTest.C;
import static io.etcdoperator.snapshot.SnapshotSourceTest.answer;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.etcdoperator.etcd.EndpointStatus;
import io.etcdoperator.etcd.EtcdAdmin;
import io.etcdoperator.etcd.EtcdConnection;
import io.etcdoperator.etcd.EtcdException;
import io.etcdoperator.etcd.MemberId;
import io.etcdoperator.etcd.Membership;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The save path against an in-memory cluster whose members answer Status as given: which one is streamed from. */
class SnapshotSaveTest {

    @TempDir
    Path dir;

    @Test
    void streamsFromTheLeaderNotTheLaggingFollowerListedFirst() throws IOException {
        var lagging = answer(A, C, 10, 4);
        var follower = answer(B, C, 500, 250);
        var leader = answer(C, C, 500, 250);
        TakenSnapshot taken = save(new Members(List.of(lagging, follower, leader)));
        assertThat(taken.source()).contains(leader);
        assertThat(Files.readString(dir.resolve("prod/nightly.db"))).isEqualTo("bytes of " + leader.endpoint());
    }

    @Test
    void withoutALeaderStreamsFromTheMemberFurthestAlong() throws IOException {
        var none = new MemberId(0);
        var lagging = answer(A, none, 10, 4);
        var ahead = answer(B, none, 700, 300);
        TakenSnapshot taken = save(new Members(List.of(lagging, ahead)));
        assertThat(taken.source()).contains(ahead);
        assertThat(Files.readString(dir.resolve("prod/nightly.db"))).isEqualTo("bytes of " + ahead.endpoint());
    }

    @Test
    void aRetryOfAStoredSnapshotNamesNoSource() {
        var leader = answer(C, C, 500, 250);
        save(new Members(List.of(leader)));
        assertThat(save(new Members(List.of(leader))).source()).isEmpty();
    }

    @Test
    void noAnswerAtAllIsClusterUnreachable() {
        var members = new Members(List.of(answer(A, A, 1, 1)));
        members.silent = true;
        assertThatThrownBy(() -> save(members))
                .isInstanceOfSatisfying(
                        SnapshotFailure.class,
                        f -> assertThat(f.reason()).isEqualTo(SnapshotFailure.Reason.CLUSTER_UNREACHABLE));
    }

    private TakenSnapshot save(Members members) {
        var connection = EtcdConnection.plaintext(members.endpoints());
        return new SnapshotSave(c -> members, connection, Duration.ofSeconds(5))
                .run(new DirectoryStore(dir), "prod/nightly.db", new SnapshotIdentity("nightly", "uid-1"));
    }

    /** Members that answer Status with fixed values; each streams its own endpoint as the snapshot bytes. */
    static final class Members implements EtcdAdmin {
        final Map<URI, EndpointStatus> statuses = new LinkedHashMap<>();
        boolean silent;

        Members(List<SnapshotSource> answers) {
            answers.forEach(a -> statuses.put(a.endpoint(), a.status()));
        }

        List<URI> endpoints() {
            return List.copyOf(statuses.keySet());
        }

        @Override
        public EndpointStatus status(URI clientUrl) {
            if (silent) {
                throw new EtcdException.Unavailable(clientUrl + " did not answer", null);
            }
            return statuses.get(clientUrl);
        }

        @Override
        public long snapshot(URI clientUrl, OutputStream sink, Duration within) {
            byte[] bytes = ("bytes of " + clientUrl).getBytes(StandardCharsets.UTF_8);
            try {
                sink.write(bytes);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return bytes.length;
        }

        @Override
        public Membership members() {
            throw new UnsupportedOperationException();
        }

        @Override
        public Membership addLearner(URI peerUrl) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void promote(MemberId id) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void remove(MemberId id) {
            throw new UnsupportedOperationException();
        }

        @Override
        public boolean authEnabled() {
            return false;
        }

        @Override
        public void enableAuth(String rootPassword) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void changeRootPassword(String rootPassword) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void close() {}
    }
}
