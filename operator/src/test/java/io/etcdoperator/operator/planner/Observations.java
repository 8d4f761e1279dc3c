package io.etcdoperator.operator.planner;

import io.etcdoperator.etcd.ClusterId;
import io.etcdoperator.etcd.EndpointStatus;
import io.etcdoperator.etcd.Member;
import io.etcdoperator.etcd.MemberId;
import io.etcdoperator.etcd.Membership;
import io.etcdoperator.operator.reason.RestartReason;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Test fixture: "a cluster with these EtcdMembers, and etcd saying this". */
final class Observations {

    static final ClusterId CLUSTER = new ClusterId(0xc1L);
    private final List<ObservedMember> members = new ArrayList<>();
    private final List<Member> etcd = new ArrayList<>();
    private Optional<ClusterId> clusterId = Optional.of(CLUSTER);
    private EtcdView view;
    private int clock;
    private final Map<String, RestartReason> outdated = new HashMap<>();
    private final Map<String, String> running = new HashMap<>();
    private final Set<String> lost = new HashSet<>();
    private final Set<String> small = new HashSet<>();
    private boolean memory;
    private boolean guarded;
    private String leader;
    private String specVersion = "3.5.16";
    private ObservedCluster.AuthView auth = ObservedCluster.AuthView.NOT_WANTED;
    private final Map<String, long[]> db = new HashMap<>();
    private long revision = 1;
    private Maintenance maintenance = Maintenance.NONE;
    private Instant observedAt = Instant.EPOCH;
    private final Map<String, ObservedMember.Broken> broken = new HashMap<>();
    private final Map<String, ObservedMember.NodeDown> nodeDown = new HashMap<>();
    private final List<ObservedCluster.StrandedPod> stranded = new ArrayList<>();
    private final Set<String> firstSeen = new HashSet<>();
    private final Set<String> podReady = new HashSet<>();
    private final Map<String, ObservedMember.ReadyPod> readyPods = new HashMap<>();
    private final Map<String, ObservedMember.Unrunnable> unrunnable = new HashMap<>();
    private ObservedCluster.Recourse recourse = ObservedCluster.Recourse.NONE;
    private final List<ObservedCluster.RetainedVolume> retained = new ArrayList<>();

    static Observations cluster() {
        return new Observations();
    }

    static URI peer(String name) {
        return URI.create("http://" + name + ".demo.default.svc:2380");
    }

    static MemberId id(String name) {
        return new MemberId(Math.abs(name.hashCode()) + 1L);
    }

    Observations notFormed() {
        clusterId = Optional.empty();
        return this;
    }

    /** A running, ready EtcdMember that etcd knows as a voter. */
    Observations voter(String name) {
        add(name, false, false, false, false, true, true, true, true);
        etcd.add(new Member(id(name), name, List.of(peer(name)), List.of(), false));
        return this;
    }

    Observations unreadyVoter(String name) {
        add(name, false, false, false, false, false, true, true, true);
        etcd.add(new Member(id(name), name, List.of(peer(name)), List.of(), false));
        return this;
    }

    /** A voter removed from etcd behind the operator's back: its id is recorded, etcd no longer lists it. */
    Observations removedFromEtcd(String name) {
        members.add(new ObservedMember(
                name,
                Instant.EPOCH.plusSeconds(clock++),
                false,
                false,
                false,
                false,
                false,
                true,
                true,
                Optional.of(id(name)),
                peer(name),
                true));
        return this;
    }

    Observations seed(String name, boolean pending, boolean hasPod) {
        add(name, true, pending, false, false, false, hasPod, true, true);
        return this;
    }

    Observations pending(String name) {
        add(name, false, true, false, false, false, false, false, true);
        return this;
    }

    /** An EtcdMember whose learner add happened (etcd knows its peer URL) and whose Pod has or has not started. */
    Observations learner(String name, boolean started) {
        add(name, false, false, false, false, false, started, false, true);
        etcd.add(new Member(id(name), started ? name : "", List.of(peer(name)), List.of(), true));
        return this;
    }

    /** A learner that runs and serves (its endpoint answered with a leader): ready, not yet voting. */
    Observations readyLearner(String name) {
        add(name, false, false, false, false, true, true, false, true);
        etcd.add(new Member(id(name), name, List.of(peer(name)), List.of(), true));
        return this;
    }

    Observations addedButUnwritten(String name) {
        add(name, false, true, false, false, false, false, false, true);
        etcd.add(new Member(id(name), "", List.of(peer(name)), List.of(), true));
        return this;
    }

    Observations dormant(String name) {
        add(name, false, false, true, false, false, false, true, true);
        return this;
    }

    Observations deleting(String name) {
        add(name, false, false, false, true, true, true, true, true);
        etcd.add(new Member(id(name), name, List.of(peer(name)), List.of(), false));
        return this;
    }

    Observations foreign(String name) {
        add(name, false, false, false, false, true, true, true, false);
        etcd.add(new Member(id(name), name, List.of(peer(name)), List.of(), false));
        return this;
    }

    Observations orphanInEtcd(String name, boolean learner) {
        etcd.add(new Member(id(name), name, List.of(peer(name)), List.of(), learner));
        return this;
    }

    Observations etcdView(EtcdView v) {
        view = v;
        return this;
    }

    /** This member's Pod is not what the latched target builds. */
    Observations outdated(String name, RestartReason why) {
        outdated.put(name, why);
        return this;
    }

    /** Every member keeps its data on tmpfs. */
    Observations memory() {
        memory = true;
        return this;
    }

    /** A memory member whose Pod is gone. */
    Observations lost(String name) {
        lost.add(name);
        return this;
    }

    /** This member's data PVC asks for less than the latched storage.size. */
    Observations volumeBehind(String name) {
        small.add(name);
        return this;
    }

    /** Ready members answer Maintenance Status, naming this leader; everyone runs {@link #specVersion}. */
    Observations leader(String name) {
        leader = name;
        return this;
    }

    /** What this member reports running (defaults to the spec version). */
    Observations runs(String name, String version) {
        running.put(name, version);
        return this;
    }

    /** The keyspace revision every member's Status reports. */
    Observations revision(long revision) {
        this.revision = revision;
        return this;
    }

    /** What this member's Maintenance Status says of its backend: size and size in use. */
    Observations db(String name, long size, long inUse) {
        db.put(name, new long[] {size, inUse});
        return this;
    }

    /** This member's etcd container lost its data (raft panic) or crash-loops. */
    Observations broken(String name, boolean dataLost) {
        broken.put(name, new ObservedMember.Broken(dataLost, dataLost, dataLost ? 1 : 5, "exit code 2"));
        return this;
    }

    /** etcd-guard says this member's etcd exited 0 unasked, as it does once it applied its own removal. */
    Observations stoppedByItself(String name) {
        broken.put(name, ObservedMember.Broken.removed(3, "exit code 0 (Completed)"));
        return this;
    }

    /** Lost data inferred from a WAL-less start that could not reach its peers, not proven. */
    Observations noWalStart(String name) {
        broken.put(name, new ObservedMember.Broken(true, false, 1, "exit code 1: cannot fetch cluster info"));
        return this;
    }

    /** Memory members' Pods run etcd-guard with the Pod's annotations: it can restart etcd in place. */
    Observations guarded() {
        guarded = true;
        return this;
    }

    /** This member's Pod is on a node that has reported Ready False or Unknown since {@code since}. */
    Observations nodeDown(String name, String node, Instant since) {
        nodeDown.put(name, new ObservedMember.NodeDown(node, since));
        return this;
    }

    /** A Pod of a removed member, being deleted, on a node not Ready since {@code since}. */
    Observations stranded(String pod, String node, Instant since) {
        stranded.add(new ObservedCluster.StrandedPod(pod, new ObservedMember.NodeDown(node, since)));
        return this;
    }

    /** This member's sign of lost data shows for the first time in this pass (not proven yet). */
    Observations firstSeen(String name) {
        firstSeen.add(name);
        return this;
    }

    /** This member's own Pod reports Ready although the member is not ready (the operator cannot reach its etcd). */
    Observations podReady(String name) {
        podReady.add(name);
        return this;
    }

    /** This member's Pod became Ready at {@code since} (the others long ago). */
    Observations readySince(String name, Instant since) {
        return readySince(name, since, false);
    }

    /** ... after its etcd was OOM-killed in it ({@code oomKilled}). */
    Observations readySince(String name, Instant since, boolean oomKilled) {
        readyPods.put(name, new ObservedMember.ReadyPod(since, oomKilled));
        return this;
    }

    /** This member's Pod has not been scheduled since {@code since}; the cluster allows ten minutes. */
    Observations unschedulable(String name, Instant since) {
        unrunnable.put(
                name,
                new ObservedMember.Unrunnable("Unschedulable: 0/3 nodes are available", since, Duration.ofMinutes(10)));
        return this;
    }

    /** A released volume of a replaced member, which may go at {@code expires} (never when null). */
    Observations retained(String pvc, Instant expires) {
        retained.add(new ObservedCluster.RetainedVolume(pvc, Optional.ofNullable(expires)));
        return this;
    }

    Observations recourse(ObservedCluster.Recourse r) {
        recourse = r;
        return this;
    }

    /** When the observation was taken; members are created at EPOCH + 0, 1, 2, ... seconds. */
    Observations at(Instant when) {
        observedAt = when;
        return this;
    }

    Observations maintenance(Maintenance m) {
        maintenance = m;
        return this;
    }

    Observations auth(ObservedCluster.AuthView view) {
        auth = view;
        return this;
    }

    ObservedCluster build() {
        EtcdView v = view != null ? view : new EtcdView.Reached(new Membership(CLUSTER, etcd));
        List<ObservedMember> out = members.stream().map(this::decorate).toList();
        return new ObservedCluster(clusterId, out, v, auth, maintenance, observedAt, stranded, recourse, retained);
    }

    private ObservedMember decorate(ObservedMember m) {
        Optional<EndpointStatus> endpoint = Optional.empty();
        Optional<Member> entry =
                etcd.stream().filter(e -> e.peerUrls().contains(m.peerUrl())).findFirst();
        if (leader != null && m.ready() && entry.isPresent()) {
            endpoint = Optional.of(new EndpointStatus(
                    running.getOrDefault(m.name(), specVersion),
                    entry.get().id(),
                    id(leader),
                    10,
                    10,
                    2,
                    db.getOrDefault(m.name(), new long[2])[0],
                    db.getOrDefault(m.name(), new long[2])[1],
                    revision,
                    entry.get().learner(),
                    List.of()));
        }
        ObservedMember seen = new ObservedMember(
                m.name(),
                m.created(),
                m.seed(),
                m.pending(),
                m.dormant(),
                m.deleting(),
                m.ready(),
                m.hasPod(),
                m.voterMark(),
                m.memberId(),
                m.peerUrl(),
                m.controlled(),
                memory,
                lost.contains(m.name()),
                Optional.ofNullable(outdated.get(m.name())),
                endpoint,
                specVersion,
                small.contains(m.name()),
                Optional.ofNullable(broken.get(m.name())),
                Optional.ofNullable(nodeDown.get(m.name())),
                memory && guarded,
                Optional.ofNullable(readyPods.get(m.name()))
                        .or(() -> m.ready() || podReady.contains(m.name())
                                ? Optional.of(ObservedMember.ReadyPod.LONG_AGO)
                                : Optional.empty()),
                Optional.empty(),
                Optional.ofNullable(unrunnable.get(m.name())));
        return seen.showsLoss() ? seen.withEvidence(Optional.of(evidence(seen))) : seen;
    }

    /** By default a sign of loss was first seen a minute ago, one failed start back: proven. */
    private ObservedMember.Evidence evidence(ObservedMember m) {
        int restarts = m.broken().map(ObservedMember.Broken::restarts).orElse(0);
        return firstSeen.contains(m.name())
                ? new ObservedMember.Evidence(observedAt, restarts)
                : new ObservedMember.Evidence(observedAt.minusSeconds(60), restarts - 1);
    }

    private void add(
            String name,
            boolean seed,
            boolean pending,
            boolean dormant,
            boolean deleting,
            boolean ready,
            boolean hasPod,
            boolean voterMark,
            boolean controlled) {
        members.add(new ObservedMember(
                name,
                Instant.EPOCH.plusSeconds(clock++),
                seed,
                pending,
                dormant,
                deleting,
                ready,
                hasPod,
                voterMark,
                ready ? Optional.of(id(name)) : Optional.empty(),
                peer(name),
                controlled));
    }
}
