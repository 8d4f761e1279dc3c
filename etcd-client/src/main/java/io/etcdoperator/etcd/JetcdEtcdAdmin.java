package io.etcdoperator.etcd;

import io.grpc.Deadline;
import io.netty.handler.ssl.SslContext;
import java.io.OutputStream;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * {@link EtcdAdmin} over gRPC channels of our own with jetcd's generated messages (jetcd's client picks endpoints by
 * round robin under one deadline; we pick them by health, each with its own: see docs/etcd-client.md).
 */
public final class JetcdEtcdAdmin implements EtcdAdmin {

    public static final EtcdAdmin.Factory FACTORY = JetcdEtcdAdmin::open;

    private static final String ROOT = "root";

    private final EtcdConnection connection;
    private final EtcdChannels channels;
    private final DirectRpc direct;
    private final MembershipRpc membership;

    private JetcdEtcdAdmin(EtcdConnection connection, SslContext sslContext, Clock clock) {
        this.connection = connection;
        this.channels = new EtcdChannels(connection, sslContext, clock);
        this.direct = new DirectRpc(channels);
        this.membership = new MembershipRpc(channels, direct);
    }

    public static JetcdEtcdAdmin open(EtcdConnection connection) {
        SslContext sslContext = connection.tls().map(ClientSslContext::of).orElse(null);
        return new JetcdEtcdAdmin(connection, sslContext, Clock.systemUTC());
    }

    @Override
    public Membership members() {
        return call("list members", membership::members);
    }

    @Override
    public Membership addLearner(URI peerUrl) {
        return call("add learner " + peerUrl, d -> membership.add(peerUrl, true, d));
    }

    @Override
    public Membership addVoter(URI peerUrl) {
        return call("add voter " + peerUrl, d -> membership.add(peerUrl, false, d));
    }

    @Override
    public void promote(MemberId id) {
        call("promote member " + id, d -> {
            membership.promote(id.value(), Optional.empty(), d);
            return null;
        });
    }

    @Override
    public void promote(MemberId id, URI leaderClientUrl) {
        call("promote member " + id + " (leader " + leaderClientUrl + ")", d -> {
            membership.promote(id.value(), Optional.of(leaderClientUrl), d);
            return null;
        });
    }

    @Override
    public void remove(MemberId id) {
        call("remove member " + id, d -> {
            membership.remove(id.value(), d);
            return null;
        });
    }

    /** An endpoint that was silent within the last 30 s gets half the timeout: a pass should not wait on it in full. */
    @Override
    public EndpointStatus status(URI clientUrl) {
        return call(
                "status of " + clientUrl,
                d -> direct.status(
                        clientUrl,
                        EtcdChannels.attemptDeadline(
                                d, connection.timeout(), !channels.health().shunned(clientUrl))));
    }

    @Override
    public void moveLeader(URI leaderClientUrl, MemberId transferee) {
        call("move leader at " + leaderClientUrl + " to member " + transferee, d -> {
            direct.moveLeader(leaderClientUrl, transferee.value(), d);
            return null;
        });
    }

    @Override
    public long snapshot(URI clientUrl, OutputStream sink, Duration within) {
        try {
            return call("snapshot of " + clientUrl, within, d -> direct.snapshot(clientUrl, sink, d));
        } catch (DirectRpc.SinkFailure e) {
            throw e.failure();
        }
    }

    @Override
    public void defragment(URI clientUrl, Duration within) {
        call("defragment " + clientUrl, within, d -> {
            direct.defragment(clientUrl, d);
            return null;
        });
    }

    @Override
    public List<Alarm> alarms() {
        return call("list alarms", direct::alarms);
    }

    @Override
    public void disarm(Alarm alarm) {
        call("disarm " + alarm, d -> {
            direct.disarm(alarm, d);
            return null;
        });
    }

    @Override
    public Compaction compact() {
        try {
            return new Compaction(call("compact", direct::compactToCurrent), false);
        } catch (EtcdException e) {
            if (!FailureClassifier.mentions(e, "required revision has been compacted")) {
                throw e;
            }
            return new Compaction(0, true);
        }
    }

    @Override
    public boolean authEnabled() {
        try {
            call("anonymous read", d -> {
                direct.anonymousRead(d);
                return null;
            });
            return false;
        } catch (EtcdException.AuthRequired e) {
            return true;
        }
    }

    @Override
    public void enableAuth(String rootPassword) {
        try {
            call("add user root", d -> {
                direct.addUser(ROOT, rootPassword, d);
                return null;
            });
        } catch (EtcdException e) {
            if (!FailureClassifier.mentions(e, "user name already exists")) {
                throw e;
            }
        }
        call("grant role root to user root", d -> {
            direct.grantRole(ROOT, ROOT, d);
            return null;
        });
        call("enable auth", d -> {
            direct.enableAuth(d);
            return null;
        });
    }

    @Override
    public void changeRootPassword(String rootPassword) {
        call("change root's password", d -> {
            direct.changePassword(ROOT, rootPassword, d);
            return null;
        });
    }

    @Override
    public void close() {
        channels.close();
    }

    @Override
    public String toString() {
        return "JetcdEtcdAdmin[" + connection + "]";
    }

    /** Runs one call within the connection's timeout; whatever gRPC threw becomes an {@link EtcdException}. */
    private <T> T call(String action, Function<Deadline, T> rpc) {
        return call(action, connection.timeout(), rpc);
    }

    private <T> T call(String action, Duration within, Function<Deadline, T> rpc) {
        Deadline deadline = Deadline.after(within.toMillis(), TimeUnit.MILLISECONDS);
        try {
            return rpc.apply(deadline);
        } catch (DirectRpc.SinkFailure e) {
            throw e;
        } catch (RuntimeException e) {
            throw FailureClassifier.classify(action, e);
        }
    }
}
