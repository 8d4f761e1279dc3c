package io.etcdoperator.operator.cluster;

import io.etcdoperator.etcd.ClusterId;
import io.etcdoperator.etcd.EndpointStatus;
import io.etcdoperator.etcd.EtcdAdmin;
import io.etcdoperator.etcd.EtcdConnection;
import io.etcdoperator.etcd.EtcdException;
import io.etcdoperator.etcd.Member;
import io.etcdoperator.etcd.MemberId;
import io.etcdoperator.etcd.Membership;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * In-memory etcd membership with etcd's own rules: one learner at a time, promotion only after the learner started,
 * no quorum-breaking removal. Records each membership change so tests can assert "one change per pass".
 */
final class FakeEtcd implements EtcdAdmin.Factory {

    final ClusterId clusterId = new ClusterId(0xfeedL);
    final List<Member> members = new ArrayList<>();
    final List<String> changes = new ArrayList<>();
    private long nextId = 1;
    boolean reachable = true;
    /** False: an opened connection gets no answer (a seed not up yet); {@link #opened} counts the dials. */
    boolean answering = true;

    int opened;
    boolean auth;
    /** What every member reports running; the leader is the voter with this id, else the first voter. */
    String version = "3.5.16";

    MemberId leader;
    /** What each member runs, by name, when the fake kubelet said so (else {@link #version}). */
    final Map<String, String> runs = new HashMap<>();

    String rootPassword;
    int authProbes;
    int promotedViaLeader;

    synchronized void start(String name, URI peerUrl) {
        Optional<Member> existing =
                members.stream().filter(m -> m.peerUrls().contains(peerUrl)).findFirst();
        if (existing.isEmpty()) {
            if (members.isEmpty()) {
                members.add(new Member(new MemberId(nextId++), name, List.of(peerUrl), List.of(), false));
            }
            return; // a member etcd never heard of cannot join
        }
        Member m = existing.get();
        members.set(members.indexOf(m), new Member(m.id(), name, m.peerUrls(), m.clientUrls(), m.learner()));
    }

    synchronized Optional<String> leaderName() {
        MemberId id = leader();
        return members.stream().filter(m -> m.id().equals(id)).map(Member::name).findFirst();
    }

    synchronized MemberId leader() {
        boolean known = leader != null && members.stream().anyMatch(m -> m.id().equals(leader) && !m.learner());
        if (!known) {
            leader = members.stream()
                    .filter(m -> !m.learner())
                    .findFirst()
                    .map(Member::id)
                    .orElse(new MemberId(0));
        }
        return leader;
    }

    synchronized Optional<Member> byName(String name) {
        return members.stream().filter(m -> m.name().equals(name)).findFirst();
    }

    @Override
    public EtcdAdmin open(EtcdConnection connection) {
        if (!reachable) {
            throw new EtcdException.Unavailable("fake etcd unreachable", null);
        }
        opened++;
        return new EtcdAdmin() {
            public Membership members() {
                synchronized (FakeEtcd.this) {
                    if (!answering) {
                        throw new EtcdException.Unavailable("fake etcd: connection refused", null);
                    }
                    return new Membership(clusterId, members);
                }
            }

            public Membership addLearner(URI peerUrl) {
                synchronized (FakeEtcd.this) {
                    if (members.stream().anyMatch(Member::learner)) {
                        throw new EtcdException.MembershipRefused("too many learner members in cluster", null);
                    }
                    members.add(new Member(new MemberId(nextId++), "", List.of(peerUrl), List.of(), true));
                    changes.add("add " + peerUrl.getHost().split("\\.")[0]);
                    return new Membership(clusterId, members);
                }
            }

            public void promote(MemberId id) {
                synchronized (FakeEtcd.this) {
                    Member m = members.stream()
                            .filter(x -> x.id().equals(id))
                            .findFirst()
                            .orElseThrow(() -> new EtcdException.MemberNotFound("member not found", null));
                    if (!m.started()) {
                        throw new EtcdException.LearnerNotReady(
                                "can only promote a learner member which is in sync with leader", null);
                    }
                    members.set(members.indexOf(m), new Member(m.id(), m.name(), m.peerUrls(), m.clientUrls(), false));
                    changes.add("promote " + m.name());
                }
            }

            public void promote(MemberId id, URI leaderClientUrl) {
                synchronized (FakeEtcd.this) {
                    if (!status(leaderClientUrl).isLeader()) {
                        throw new AssertionError("MemberPromote sent to " + leaderClientUrl + ", which does not lead");
                    }
                    promotedViaLeader++;
                }
                promote(id);
            }

            public void remove(MemberId id) {
                synchronized (FakeEtcd.this) {
                    Member m = members.stream()
                            .filter(x -> x.id().equals(id))
                            .findFirst()
                            .orElseThrow(() -> new EtcdException.MemberNotFound("member not found", null));
                    members.remove(m);
                    changes.add("remove " + m.name());
                }
            }

            public EndpointStatus status(URI clientUrl) {
                synchronized (FakeEtcd.this) {
                    String host = clientUrl.getHost().split("\\.")[0];
                    Member self = members.stream()
                            .filter(m -> m.peerUrls().stream()
                                    .anyMatch(p -> p.getHost().split("\\.")[0].equals(host)))
                            .findFirst()
                            .orElseThrow(() -> new EtcdException.Unavailable("no member at " + clientUrl, null));
                    MemberId lead = leader();
                    return new EndpointStatus(
                            runs.getOrDefault(self.name(), version),
                            self.id(),
                            lead,
                            1,
                            1,
                            1,
                            0,
                            0,
                            1,
                            self.learner(),
                            List.of());
                }
            }

            public void moveLeader(URI leaderClientUrl, MemberId transferee) {
                synchronized (FakeEtcd.this) {
                    if (!status(leaderClientUrl).isLeader()) {
                        throw new EtcdException.Unavailable("etcdserver: not leader", null);
                    }
                    leader = transferee;
                    changes.add("move-leader "
                            + members.stream()
                                    .filter(m -> m.id().equals(transferee))
                                    .findFirst()
                                    .map(Member::name)
                                    .orElse("?"));
                }
            }

            public boolean authEnabled() {
                synchronized (FakeEtcd.this) {
                    authProbes++;
                    return auth;
                }
            }

            public void enableAuth(String password) {
                synchronized (FakeEtcd.this) {
                    rootPassword = password;
                    auth = true;
                    changes.add("auth enable");
                }
            }

            public void changeRootPassword(String password) {
                synchronized (FakeEtcd.this) {
                    rootPassword = password;
                    changes.add("root password changed");
                }
            }

            public void close() {}
        };
    }
}
