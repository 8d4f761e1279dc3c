package io.etcdoperator.operator.cluster;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdOperatorApi;
import io.etcdoperator.api.v1alpha2.ObservedClusterSpec;
import io.etcdoperator.etcd.EndpointStatus;
import io.etcdoperator.etcd.EtcdAdmin;
import io.etcdoperator.etcd.EtcdException;
import io.etcdoperator.etcd.Member;
import io.etcdoperator.etcd.MemberId;
import io.etcdoperator.etcd.Membership;
import io.etcdoperator.operator.planner.ExternalMembers;
import java.net.URI;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** What the observer reads of an adoption (spec.bootstrap.existing): from the cluster's status, and from etcd. */
public final class Adopted {

    private static final Logger LOG = LoggerFactory.getLogger(Adopted.class);

    private Adopted() {}

    /** Adopting: the latched target says so, and either no id is latched yet or external members are recorded. */
    static ExternalMembers of(EtcdCluster cluster) {
        ObservedClusterSpec target = cluster.getStatus().getObserved();
        if (target == null
                || target.getBootstrap() == null
                || target.getBootstrap().getExisting() == null) {
            return ExternalMembers.NONE;
        }
        List<String> recorded = cluster.getStatus().getExternalMembers();
        boolean latched = cluster.getStatus().getClusterID() != null;
        if (recorded != null && recorded.isEmpty() || latched && recorded == null) {
            return ExternalMembers.NONE; // finished (the empty list stays: a later reset-empty forms a new cluster)
        }
        recorded = recorded == null ? List.of() : recorded;
        Map<String, String> annotations = cluster.getMetadata().getAnnotations();
        boolean allowed = annotations != null
                && "true".equals(annotations.get(EtcdOperatorApi.ANNOTATION_REMOVE_EXTERNAL_MEMBERS));
        Set<MemberId> ids = recorded.stream().map(MemberId::parse).collect(Collectors.toSet());
        return new ExternalMembers(true, ids, Map.of(), allowed, Optional.ofNullable(target.getVersion()));
    }

    /** Only an answer that names the member counts: a shared or loopback URL may be answered by another one. */
    private static Optional<Map.Entry<URI, EndpointStatus>> status(EtcdAdmin etcd, Member member) {
        for (URI url : member.clientUrls()) {
            try {
                EndpointStatus status = etcd.status(url);
                if (status.memberId().equals(member.id())) {
                    return Optional.of(Map.entry(url, status));
                }
            } catch (EtcdException e) {
                LOG.atDebug()
                        .addKeyValue("member", member.name())
                        .addKeyValue("error", e.getMessage())
                        .log("external member did not answer");
            }
        }
        return Optional.empty();
    }

    /** External members still vote: recorded, and the adoption not finished (Finish leaves an empty list). */
    public static boolean externalVoting(EtcdCluster cluster) {
        return cluster.getStatus() != null
                && cluster.getStatus().getExternalMembers() != null
                && !cluster.getStatus().getExternalMembers().isEmpty();
    }

    /** The client URLs the user gave for the running cluster. */
    public static List<URI> clientUrls(EtcdCluster cluster) {
        return cluster.getStatus().getObserved().getBootstrap().getExisting().getClientUrls().stream()
                .map(URI::create)
                .toList();
    }

    /** Each external member's status at the client URL it advertises; one that does not answer is left out. */
    static ExternalMembers answered(ExternalMembers external, EtcdAdmin etcd, Membership membership) {
        if (!external.adopting()) {
            return external;
        }
        Map<MemberId, EndpointStatus> answered = new HashMap<>();
        Map<MemberId, URI> at = new HashMap<>();
        for (Member member : external.listed(membership)) {
            status(etcd, member).ifPresent(s -> {
                answered.put(member.id(), s.getValue());
                at.put(member.id(), s.getKey());
            });
        }
        return new ExternalMembers(
                true, external.recorded(), answered, external.removalAllowed(), external.wantedVersion(), at);
    }
}
