package io.etcdoperator.operator.planner;

import io.etcdoperator.etcd.EndpointStatus;
import io.etcdoperator.etcd.Member;
import io.etcdoperator.etcd.MemberId;
import io.etcdoperator.etcd.Membership;
import io.etcdoperator.operator.reason.RestartReason;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * One EtcdMember as seen in this pass.
 *
 * @param pending an EtcdMember whose initial cluster is not written yet (no Pod can start)
 * @param ready the member's Ready condition: Pod ready and etcd member id known
 * @param voterMark status.isVoter, the operator's last record of etcd's view (used to pick dial endpoints)
 * @param controlled whether the EtcdMember is controlled by this cluster's UID
 * @param memory whether its data lives on tmpfs (a restart loses it)
 * @param podLost a memory member whose Pod is gone or was replaced: its data is gone with it
 * @param outdated why its Pod differs from what the latched target builds, if it does
 * @param endpoint etcd's Maintenance Status of its client URL, when it answered this pass
 * @param specVersion the etcd version its EtcdMember asks for
 * @param volumeBehind its data PVC requests less than the latched storage.size
 * @param broken its etcd container lost its data or crash-loops (from the Pod's last termination)
 * @param nodeDown its Pod's node is not Ready (observed only for a Pod that is not ready itself)
 * @param restartsInPlace its Pod's etcd-guard follows the Pod's annotations and can restart etcd with
 *     --force-new-cluster in the same Pod, which keeps a memory member's data
 * @param readyPod its own Pod (found by owner reference) reports Ready, whatever the member's condition says: since
 *     when, and whether its etcd was OOM-killed in it before; empty while it is not Ready
 * @param evidence since when, and at which restart count, this operator has seen the member's current sign of lost
 *     data ({@code podLost} or a {@code broken} that lost data); a destructive step needs it seen twice
 * @param unrunnable its Pod has not been able to run (Pending: unschedulable, its volume not bound) since when, and
 *     how long that may last (the cluster's progressDeadlineSeconds)
 */
public record ObservedMember(
        String name,
        Instant created,
        boolean seed,
        boolean pending,
        boolean dormant,
        boolean deleting,
        boolean ready,
        boolean hasPod,
        boolean voterMark,
        Optional<MemberId> memberId,
        URI peerUrl,
        boolean controlled,
        boolean memory,
        boolean podLost,
        Optional<RestartReason> outdated,
        Optional<EndpointStatus> endpoint,
        String specVersion,
        boolean volumeBehind,
        Optional<Broken> broken,
        Optional<NodeDown> nodeDown,
        boolean restartsInPlace,
        Optional<ReadyPod> readyPod,
        Optional<Evidence> evidence,
        Optional<Unrunnable> unrunnable) {

    /** This member's entry in etcd's member list, found by name or peer URL. */
    public Optional<Member> entryIn(Membership membership) {
        return membership.entryOf(name, peerUrl);
    }

    /** Whether etcd lists this member as a voter (a learner, or a member etcd does not list, does not vote). */
    public boolean votesIn(Membership membership) {
        return entryIn(membership).map(e -> !e.learner()).orElse(false);
    }

    /**
     * A broken etcd container: it lost its data, or it crash-loops; what its last run said. {@code proven}: the loss is
     * certain (etcd-guard refused it, or raft panicked on a log it no longer has), not inferred from a WAL-less start.
     * {@code removed}: its etcd stopped by itself, as it does once it applied its own removal (etcd-guard says so).
     */
    public record Broken(boolean dataLost, boolean proven, int restarts, String lastExit, boolean removed) {
        public Broken(boolean dataLost, boolean proven, int restarts, String lastExit) {
            this(dataLost, proven, restarts, lastExit, false);
        }

        public static Broken removed(int restarts, String lastExit) {
            return new Broken(false, false, restarts, lastExit, true);
        }
    }

    /**
     * A Ready Pod: Ready since {@code since} (the later of the Ready condition's transition and the start of its etcd
     * container's current run); {@code oomKilled}: that container's last run in this Pod ended OOMKilled.
     */
    public record ReadyPod(Instant since, boolean oomKilled) {
        public static final ReadyPod LONG_AGO = new ReadyPod(Instant.MIN, false);
    }

    /** The node a Pod is bound to reports Ready False or Unknown, since its condition last changed. */
    public record NodeDown(String node, Instant since) {}

    /** When this operator first saw the member's current sign of lost data, and its etcd container's restarts then. */
    public record Evidence(Instant since, int restartsThen) {}

    /** Its Pod is Pending since {@code since} for {@code why}; after {@code allowed} the member is replaced. */
    public record Unrunnable(String why, Instant since, Duration allowed) {}

    /** As observed with its Pod's readiness taken from the member's, and no sign of loss seen before this pass. */
    public ObservedMember(
            String name,
            Instant created,
            boolean seed,
            boolean pending,
            boolean dormant,
            boolean deleting,
            boolean ready,
            boolean hasPod,
            boolean voterMark,
            Optional<MemberId> memberId,
            URI peerUrl,
            boolean controlled,
            boolean memory,
            boolean podLost,
            Optional<RestartReason> outdated,
            Optional<EndpointStatus> endpoint,
            String specVersion,
            boolean volumeBehind,
            Optional<Broken> broken,
            Optional<NodeDown> nodeDown,
            boolean restartsInPlace) {
        this(
                name,
                created,
                seed,
                pending,
                dormant,
                deleting,
                ready,
                hasPod,
                voterMark,
                memberId,
                peerUrl,
                controlled,
                memory,
                podLost,
                outdated,
                endpoint,
                specVersion,
                volumeBehind,
                broken,
                nodeDown,
                restartsInPlace,
                ready ? Optional.of(ReadyPod.LONG_AGO) : Optional.empty(),
                Optional.empty(),
                Optional.empty());
    }

    public ObservedMember(
            String name,
            Instant created,
            boolean seed,
            boolean pending,
            boolean dormant,
            boolean deleting,
            boolean ready,
            boolean hasPod,
            boolean voterMark,
            Optional<MemberId> memberId,
            URI peerUrl,
            boolean controlled,
            boolean memory,
            boolean podLost,
            Optional<RestartReason> outdated,
            Optional<EndpointStatus> endpoint,
            String specVersion,
            boolean volumeBehind,
            Optional<Broken> broken,
            Optional<NodeDown> nodeDown) {
        this(
                name,
                created,
                seed,
                pending,
                dormant,
                deleting,
                ready,
                hasPod,
                voterMark,
                memberId,
                peerUrl,
                controlled,
                memory,
                podLost,
                outdated,
                endpoint,
                specVersion,
                volumeBehind,
                broken,
                nodeDown,
                false);
    }

    public ObservedMember(
            String name,
            Instant created,
            boolean seed,
            boolean pending,
            boolean dormant,
            boolean deleting,
            boolean ready,
            boolean hasPod,
            boolean voterMark,
            Optional<MemberId> memberId,
            URI peerUrl,
            boolean controlled,
            boolean memory,
            boolean podLost,
            Optional<RestartReason> outdated,
            Optional<EndpointStatus> endpoint,
            String specVersion,
            boolean volumeBehind,
            Optional<Broken> broken) {
        this(
                name,
                created,
                seed,
                pending,
                dormant,
                deleting,
                ready,
                hasPod,
                voterMark,
                memberId,
                peerUrl,
                controlled,
                memory,
                podLost,
                outdated,
                endpoint,
                specVersion,
                volumeBehind,
                broken,
                Optional.empty());
    }

    public ObservedMember(
            String name,
            Instant created,
            boolean seed,
            boolean pending,
            boolean dormant,
            boolean deleting,
            boolean ready,
            boolean hasPod,
            boolean voterMark,
            Optional<MemberId> memberId,
            URI peerUrl,
            boolean controlled,
            boolean memory,
            boolean podLost,
            Optional<RestartReason> outdated,
            Optional<EndpointStatus> endpoint,
            String specVersion,
            boolean volumeBehind) {
        this(
                name,
                created,
                seed,
                pending,
                dormant,
                deleting,
                ready,
                hasPod,
                voterMark,
                memberId,
                peerUrl,
                controlled,
                memory,
                podLost,
                outdated,
                endpoint,
                specVersion,
                volumeBehind,
                Optional.empty());
    }

    /** A PVC member on the latched target, with nothing observed from etcd. */
    public ObservedMember(
            String name,
            Instant created,
            boolean seed,
            boolean pending,
            boolean dormant,
            boolean deleting,
            boolean ready,
            boolean hasPod,
            boolean voterMark,
            Optional<MemberId> memberId,
            URI peerUrl,
            boolean controlled) {
        this(
                name,
                created,
                seed,
                pending,
                dormant,
                deleting,
                ready,
                hasPod,
                voterMark,
                memberId,
                peerUrl,
                controlled,
                false,
                false,
                Optional.empty(),
                Optional.empty(),
                "",
                false);
    }

    public boolean running() {
        return !deleting && !dormant;
    }

    /** This member as the pass that restarts it must report it: its Pod is going, so it is not ready. */
    public ObservedMember restarting() {
        return new ObservedMember(
                name,
                created,
                seed,
                pending,
                dormant,
                deleting,
                false,
                hasPod,
                voterMark,
                memberId,
                peerUrl,
                controlled,
                memory,
                podLost,
                outdated,
                endpoint,
                specVersion,
                volumeBehind,
                broken,
                nodeDown,
                restartsInPlace,
                Optional.empty(),
                evidence,
                unrunnable);
    }

    /** This member with what earlier passes saw of its sign of lost data. */
    public ObservedMember withEvidence(Optional<Evidence> seen) {
        return new ObservedMember(
                name,
                created,
                seed,
                pending,
                dormant,
                deleting,
                ready,
                hasPod,
                voterMark,
                memberId,
                peerUrl,
                controlled,
                memory,
                podLost,
                outdated,
                endpoint,
                specVersion,
                volumeBehind,
                broken,
                nodeDown,
                restartsInPlace,
                readyPod,
                seen,
                unrunnable);
    }

    /** Its data is gone by what this pass sees: a memory member's Pod, or its etcd container says so. */
    public boolean showsLoss() {
        return (memory && podLost) || broken.map(Broken::dataLost).orElse(false);
    }

    /** Ready, and (when etcd answered) running the version its spec asks for: a rolled member has settled. */
    public boolean settled() {
        return ready
                && endpoint.map(s -> s.version().equals(specVersion) || specVersion.isEmpty())
                        .orElse(true);
    }

    public boolean podReady() {
        return readyPod.isPresent();
    }

    public boolean isLeader() {
        return endpoint.map(EndpointStatus::isLeader).orElse(false);
    }
}
