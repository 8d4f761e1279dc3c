package io.etcdoperator.operator.cluster;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.operator.planner.MemberMaterial;
import io.etcdoperator.operator.resources.EtcdMembers;
import io.etcdoperator.operator.resources.Labels;
import io.etcdoperator.operator.writes.MergePatch;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The writes the cluster controller makes to EtcdMembers: each is one request, merge patches of only its fields. */
final class EtcdMemberWrites {

    private static final Logger LOG = LoggerFactory.getLogger(EtcdMemberWrites.class);

    private final KubernetesClient client;

    EtcdMemberWrites(KubernetesClient client) {
        this.client = client;
    }

    EtcdMember create(EtcdCluster cluster, boolean seed, Optional<MemberMaterial> material) {
        return client.resources(EtcdMember.class)
                .inNamespace(ns(cluster))
                .resource(EtcdMembers.pending(cluster, seed, material))
                .create();
    }

    void delete(EtcdCluster cluster, String member) {
        client.resources(EtcdMember.class)
                .inNamespace(ns(cluster))
                .withName(member)
                .delete();
    }

    /** The member may start: its initial cluster, and the labels that make its Pod the cluster's. */
    void writeInitialCluster(EtcdCluster cluster, String member, String initialCluster) {
        Map<String, Object> patch = Map.of(
                "metadata", Map.of("labels", Labels.member(cluster.getMetadata().getName(), member)),
                "spec", Map.of("initialCluster", initialCluster));
        MergePatch.of(client, EtcdMember::new, ns(cluster), member, patch);
    }

    void patchSpec(EtcdCluster cluster, String member, Map<String, Object> spec) {
        MergePatch.of(client, EtcdMember::new, ns(cluster), member, Map.of("spec", spec));
    }

    /** A merge patch of only the given status fields: the member controller owns the rest of the status. */
    void patchStatus(EtcdMember member, Map<String, Object> fields) {
        if (member == null) {
            return;
        }
        patchStatus(member.getMetadata().getNamespace(), member.getMetadata().getName(), fields);
    }

    void patchStatus(String namespace, String member, Map<String, Object> fields) {
        MergePatch.ofStatus(client, EtcdMember::new, namespace, member, Map.of("status", fields));
    }

    /** Promoted: isVoter at once (the next dial, the voter-only PDB); an EtcdMember deleted meanwhile needs none. */
    void markVoter(EtcdCluster cluster, String member) {
        try {
            patchStatus(ns(cluster), member, Map.of("isVoter", true));
        } catch (KubernetesClientException e) {
            if (e.getCode() != 404) {
                throw e;
            }
        }
    }

    /**
     * Known from the add: READY may count the member before its Pod is Ready and the member controller looks the id up.
     * Best effort: the member controller finds the id itself once the Pod is Ready.
     */
    void recordMemberId(EtcdCluster cluster, String member, String id) {
        recordMember(cluster, member, Map.of("memberID", id));
    }

    /** A learner just added: its id and that it does not vote yet in one write (the next pass's report needs none). */
    void recordLearner(EtcdCluster cluster, String member, String id) {
        recordMember(cluster, member, Map.of("memberID", id, "isVoter", false));
    }

    private void recordMember(EtcdCluster cluster, String member, Map<String, Object> fields) {
        try {
            patchStatus(ns(cluster), member, fields); // by name: a GET first would only cost a call
        } catch (KubernetesClientException e) {
            LOG.atDebug()
                    .addKeyValue("member", member)
                    .addKeyValue("code", e.getCode())
                    .log("member id not recorded");
        }
    }

    private static String ns(EtcdCluster cluster) {
        return cluster.getMetadata().getNamespace();
    }
}
