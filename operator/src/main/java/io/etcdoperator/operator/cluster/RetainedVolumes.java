package io.etcdoperator.operator.cluster;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.api.v1alpha2.EtcdOperatorApi;
import io.etcdoperator.operator.events.EventRecorder;
import io.etcdoperator.operator.planner.ObservedCluster;
import io.etcdoperator.operator.reason.Reason;
import io.etcdoperator.operator.resources.MemberPods;
import io.etcdoperator.operator.resources.Names;
import io.etcdoperator.operator.resources.Owners;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Clock;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * No automatic step deletes a volume: before a replaced member's EtcdMember goes, its data PVC loses its owner
 * reference (so garbage collection keeps it) and is labelled with what it held. A person deletes it
 * (docs/operations.md#retained-volumes).
 */
final class RetainedVolumes {

    private static final Logger LOG = LoggerFactory.getLogger(RetainedVolumes.class);
    static final String HOW_TO_FIND = "kubectl get pvc -l " + EtcdOperatorApi.LABEL_RETAINED_FROM;
    static final String ANNOTATION_MEMBER_ID = EtcdOperatorApi.RESERVED_PREFIX + "retained-member-id";
    static final String ANNOTATION_RELEASED_AT = EtcdOperatorApi.RESERVED_PREFIX + "released-at";

    private final KubernetesClient client;
    private final EventRecorder events;
    private final Clock clock;

    RetainedVolumes(KubernetesClient client, EventRecorder events, Clock clock) {
        this.client = client;
        this.events = events;
        this.clock = clock;
    }

    /**
     * The cluster's released volumes and when each may go ({@code retainedVolumeSeconds} after its release); without
     * a retention, or without a readable release time, never.
     */
    static List<ObservedCluster.RetainedVolume> observed(
            Collection<PersistentVolumeClaim> pvcs, Integer retentionSeconds) {
        return pvcs.stream()
                .filter(p -> p.getMetadata().getLabels() != null
                        && p.getMetadata().getLabels().containsKey(EtcdOperatorApi.LABEL_RETAINED_FROM)
                        && p.getMetadata().getDeletionTimestamp() == null)
                .map(p -> new ObservedCluster.RetainedVolume(
                        p.getMetadata().getName(),
                        Optional.ofNullable(retentionSeconds)
                                .flatMap(seconds -> releasedAt(p).map(at -> at.plusSeconds(seconds)))))
                .toList();
    }

    private static Optional<Instant> releasedAt(PersistentVolumeClaim pvc) {
        try {
            return Optional.ofNullable(pvc.getMetadata().getAnnotations())
                    .map(a -> a.get(ANNOTATION_RELEASED_AT))
                    .map(Instant::parse);
        } catch (RuntimeException e) {
            return Optional.empty(); // edited by hand: kept until a person deletes it
        }
    }

    /** One merge patch, only on a PVC this member still controls: repeating it after a crash changes nothing. */
    void release(EtcdCluster cluster, Optional<EtcdMember> member) {
        if (member.isEmpty() || MemberPods.memoryBacked(member.get().getSpec())) {
            return;
        }
        EtcdMember m = member.get();
        String name = Names.dataPvc(m.getMetadata().getName());
        var ref = client.persistentVolumeClaims()
                .inNamespace(m.getMetadata().getNamespace())
                .withName(name);
        var pvc = ref.get();
        if (pvc == null || !Owners.controlledBy(pvc, m.getMetadata().getUid())) {
            return;
        }
        Map<String, Object> metadata = new HashMap<>();
        metadata.put("ownerReferences", null);
        metadata.put(
                "labels",
                Map.of(EtcdOperatorApi.LABEL_RETAINED_FROM, m.getMetadata().getName()));
        Map<String, String> annotations = new HashMap<>();
        annotations.put(ANNOTATION_RELEASED_AT, clock.instant().toString());
        Optional.ofNullable(m.getStatus())
                .map(s -> s.getMemberID())
                .ifPresent(id -> annotations.put(ANNOTATION_MEMBER_ID, id));
        metadata.put("annotations", annotations);
        ref.patch(
                PatchContext.of(PatchType.JSON_MERGE),
                client.getKubernetesSerialization().asJson(Map.of("metadata", metadata)));
        String message = "volume " + name + " of member " + m.getMetadata().getName() + " released and kept; a person "
                + "deletes it (" + HOW_TO_FIND + ")";
        events.normal(cluster, Reason.VOLUME_RETAINED, message);
        LOG.atInfo()
                .addKeyValue("pvc", name)
                .addKeyValue("member", m.getMetadata().getName())
                .log(message);
    }
}
