package io.etcdoperator.operator.cluster;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.operator.planner.ExternalMembers;
import io.etcdoperator.operator.planner.Maintenance;
import io.etcdoperator.operator.resources.Names;
import java.net.URI;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** The client URLs the observer dials for a pass: who answers for the cluster, and who must not be asked. */
final class VoterEndpoints {

    private VoterEndpoints() {}

    /**
     * The member a quorum recovery runs alone (the dropped members' endpoints could only time out); else the voters;
     * else, while a running etcd is adopted and none of the operator's members votes yet, the URLs the user gave.
     * {@code podsSeen}: the members whose Pod this pass saw.
     */
    static List<URI> dialled(
            EtcdCluster cluster,
            List<EtcdMember> members,
            Set<String> podsSeen,
            Optional<Maintenance.QuorumRecovery> recovery,
            boolean formed,
            ExternalMembers external) {
        List<URI> endpoints = recovery.flatMap(Maintenance.QuorumRecovery::flagged)
                .map(flagged -> members.stream()
                        .filter(m -> m.getMetadata().getName().equals(flagged))
                        .map(Names::clientUrl)
                        .toList())
                .orElseGet(() -> of(members, podsSeen, formed));
        return endpoints.isEmpty() && external.adopting() ? Adopted.clientUrls(cluster) : endpoints;
    }

    /**
     * Voters with a Pod; before formation only the seed. Learners never: they refuse most RPCs. A voter whose Pod
     * this pass did not see is left out while another one is there: its endpoint could only time out, and the call
     * that tried it first would wait half its deadline (a Memory member's loss was seen 2.5 s late).
     */
    static List<URI> of(List<EtcdMember> members, Set<String> podsSeen, boolean formed) {
        List<EtcdMember> voters = voters(members, formed);
        List<EtcdMember> seen = voters.stream()
                .filter(m -> podsSeen.contains(m.getMetadata().getName()))
                .toList();
        return (seen.isEmpty() ? voters : seen).stream().map(Names::clientUrl).toList();
    }

    private static List<EtcdMember> voters(List<EtcdMember> members, boolean formed) {
        List<EtcdMember> live = members.stream()
                .filter(m -> m.getMetadata().getDeletionTimestamp() == null)
                .filter(m -> !Boolean.TRUE.equals(m.getSpec().getDormant()))
                .filter(VoterEndpoints::hasPod)
                .toList();
        if (!formed) {
            return live.stream()
                    .filter(m -> Boolean.TRUE.equals(m.getSpec().getBootstrap()))
                    .toList();
        }
        // the seed formed the cluster, so it is a voter even if a crash inside CreateSeed left isVoter unwritten
        return live.stream()
                .filter(m -> Boolean.TRUE.equals(m.getSpec().getBootstrap())
                        || (m.getStatus() != null
                                && Boolean.TRUE.equals(m.getStatus().getIsVoter())))
                .toList();
    }

    static boolean hasPod(EtcdMember m) {
        return m.getStatus() != null
                && m.getStatus().getPodName() != null
                && !m.getStatus().getPodName().isEmpty();
    }
}
