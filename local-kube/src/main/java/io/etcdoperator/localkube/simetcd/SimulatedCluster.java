package io.etcdoperator.localkube.simetcd;

import io.grpc.Status;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;

/**
 * The raft state of one simulated etcd cluster, shared by all its member endpoints, with etcd's membership rules:
 * at most one learner; a learner is promoted only once in sync; a member add waits until every other voter has been
 * connected for the health gate; no change may leave fewer started voters than a quorum.
 */
public final class SimulatedCluster {

    private static final Random IDS = new SecureRandom();

    private final Clock clock;
    private final EtcdRules rules;
    private final long clusterId = nonZero();
    private final String version;
    private final Map<Long, SimulatedMember> members = new LinkedHashMap<>();
    private final Map<String, String> users = new HashMap<>();
    private final Map<String, String> tokens = new HashMap<>();
    private long leader;
    private long term = 1;
    private long index = 4; // a fresh etcd has applied a few entries (its own member, the cluster version)
    private boolean authEnabled;

    private SimulatedCluster(Clock clock, EtcdRules rules, String version) {
        this.clock = clock;
        this.rules = rules;
        this.version = version;
    }

    /** A new cluster formed by one member ({@code --initial-cluster-state=new}), already started and leading. */
    public static SimulatedCluster seed(
            Clock clock, EtcdRules rules, String version, String name, String peerUrl, String clientUrl) {
        SimulatedCluster cluster = new SimulatedCluster(clock, rules, version);
        SimulatedMember seed = new SimulatedMember(nonZero(), peerUrl, false);
        cluster.members.put(seed.id, seed);
        cluster.start(peerUrl, name, clientUrl);
        return cluster;
    }

    public long clusterId() {
        return clusterId;
    }

    public String version() {
        return version;
    }

    public synchronized Optional<Long> memberByPeerUrl(String peerUrl) {
        return members.values().stream()
                .filter(m -> m.peerUrl.equals(peerUrl))
                .map(m -> m.id)
                .findFirst();
    }

    public synchronized boolean contains(long memberId) {
        return members.containsKey(memberId);
    }

    /** The member with this peer URL comes up (its process started); empty if etcd does not know that peer URL. */
    public synchronized Optional<Long> start(String peerUrl, String name, String clientUrl) {
        Optional<SimulatedMember> member =
                members.values().stream().filter(m -> m.peerUrl.equals(peerUrl)).findFirst();
        member.ifPresent(m -> {
            m.name = name;
            m.clientUrl = clientUrl;
            m.connectedSince = clock.instant();
            elect();
        });
        return member.map(m -> m.id);
    }

    /** The member's process is gone (Pod deleted): it stays a member, but is down until started again. */
    public synchronized void stop(long memberId) {
        SimulatedMember member = members.get(memberId);
        if (member != null) {
            member.connectedSince = null;
            elect();
        }
    }

    public synchronized boolean hasLeader() {
        return leader != 0;
    }

    public synchronized List<MemberView> members() {
        return members.values().stream().map(SimulatedMember::view).toList();
    }

    public synchronized MemberView add(String peerUrl, boolean learner) {
        requireLeader();
        if (members.values().stream().anyMatch(m -> m.peerUrl.equals(peerUrl))) {
            throw EtcdRefusal.precondition("Peer URLs already exists");
        }
        if (learner && members.values().stream().anyMatch(m -> m.learner)) {
            throw EtcdRefusal.precondition("too many learner members in cluster");
        }
        if (!learner && upVoters() < quorum(voters() + 1)) {
            throw EtcdRefusal.precondition("re-configuration failed due to not enough started members");
        }
        Instant gate = clock.instant().minus(rules.healthGate());
        boolean healthy = members.values().stream()
                .filter(m -> !m.learner && m.id != leader)
                .allMatch(m -> m.up() && !m.connectedSince.isAfter(gate));
        if (!healthy) {
            throw EtcdRefusal.unavailable("unhealthy cluster");
        }
        SimulatedMember added = new SimulatedMember(nonZero(), peerUrl, learner);
        members.put(added.id, added);
        index++;
        return added.view();
    }

    public synchronized void promote(long memberId) {
        requireLeader();
        SimulatedMember member = require(memberId);
        if (!member.learner) {
            throw EtcdRefusal.precondition("can only promote a learner member");
        }
        boolean inSync = member.up() && !clock.instant().isBefore(member.connectedSince.plus(rules.catchUp()));
        if (!inSync) {
            throw EtcdRefusal.precondition("can only promote a learner member which is in sync with leader");
        }
        if (upVoters() + 1 < quorum(voters() + 1)) {
            throw EtcdRefusal.precondition("re-configuration failed due to not enough started members");
        }
        member.learner = false;
        index++;
    }

    public synchronized void remove(long memberId) {
        requireLeader();
        SimulatedMember member = require(memberId);
        if (!member.learner) {
            long upAfter = upVoters() - (member.up() ? 1 : 0);
            if (upAfter < quorum(voters() - 1)) {
                throw EtcdRefusal.precondition("re-configuration failed due to not enough started members");
            }
        }
        members.remove(memberId);
        index++;
        elect();
    }

    /** MoveLeader sent to member {@code at}: only the leader answers, and only for a voter that is up. */
    public synchronized void moveLeader(long at, long transferee) {
        if (at != leader) {
            throw EtcdRefusal.precondition("not leader");
        }
        SimulatedMember target = members.get(transferee);
        if (target == null || target.learner || !target.up()) {
            throw EtcdRefusal.precondition("bad leader transferee");
        }
        if (transferee != leader) {
            leader = transferee;
            term++;
            index++;
        }
    }

    /** What Maintenance Status answers on the endpoint of {@code memberId}. */
    public synchronized EndpointState status(long memberId) {
        SimulatedMember member = require(memberId);
        return new EndpointState(memberId, leader, term, index, member.learner);
    }

    public synchronized long raftTerm() {
        return term;
    }

    public synchronized boolean authEnabled() {
        return authEnabled;
    }

    public synchronized void addUser(String name, String password) {
        requireLeader();
        if (users.containsKey(name)) {
            throw EtcdRefusal.precondition("user name already exists");
        }
        users.put(name, password);
        index++;
    }

    public synchronized void enableAuth() {
        requireLeader();
        if (!users.containsKey("root")) {
            throw EtcdRefusal.precondition("root user does not exist");
        }
        authEnabled = true;
        index++;
    }

    /** A token for the user, as etcd's simple tokens; refused while auth is off or with wrong credentials. */
    public synchronized String authenticate(String name, String password) {
        if (!authEnabled) {
            throw EtcdRefusal.precondition("authentication is not enabled");
        }
        if (!password.equals(users.get(name))) {
            throw new EtcdRefusal(
                    Status.Code.INVALID_ARGUMENT, "etcdserver: authentication failed, invalid user ID or password");
        }
        String token = Long.toHexString(nonZero()) + "." + index;
        tokens.put(token, name);
        return token;
    }

    /** Whether a request carrying {@code token} (null: none) may read or write. */
    public synchronized void authorize(String token) {
        if (!authEnabled) {
            return;
        }
        if (token == null) {
            throw new EtcdRefusal(Status.Code.INVALID_ARGUMENT, "etcdserver: user name is empty");
        }
        if (!tokens.containsKey(token)) {
            throw new EtcdRefusal(Status.Code.UNAUTHENTICATED, "etcdserver: invalid auth token");
        }
    }

    private void requireLeader() {
        if (leader == 0) {
            throw EtcdRefusal.unavailable("no leader");
        }
    }

    private SimulatedMember require(long memberId) {
        SimulatedMember member = members.get(memberId);
        if (member == null) {
            throw EtcdRefusal.memberNotFound();
        }
        return member;
    }

    /** Keeps a leader that is up; otherwise the first voter that is up wins, if a quorum of voters is up. */
    private void elect() {
        SimulatedMember current = members.get(leader);
        if (current != null && current.up() && !current.learner) {
            return;
        }
        leader = 0;
        if (upVoters() >= quorum(voters())) {
            members.values().stream()
                    .filter(m -> !m.learner && m.up())
                    .findFirst()
                    .ifPresent(m -> leader = m.id);
            term++;
            index++;
        }
    }

    private long voters() {
        return members.values().stream().filter(m -> !m.learner).count();
    }

    private long upVoters() {
        return members.values().stream().filter(m -> !m.learner && m.up()).count();
    }

    private static long quorum(long voters) {
        return voters / 2 + 1;
    }

    private static long nonZero() {
        long id;
        do {
            id = IDS.nextLong() & Long.MAX_VALUE;
        } while (id == 0);
        return id;
    }

    /** One endpoint's view of raft: who leads, the term and index, and whether it is a learner. */
    public record EndpointState(long memberId, long leader, long term, long index, boolean learner) {}
}
