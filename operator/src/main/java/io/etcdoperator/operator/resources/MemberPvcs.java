package io.etcdoperator.operator.resources;

import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.api.v1alpha2.EtcdMemberSpec;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import java.util.Map;

/** The data PVC of a disk-backed member, owned by the EtcdMember so it goes when the member goes. */
public final class MemberPvcs {

    private MemberPvcs() {}

    public static PersistentVolumeClaim build(EtcdMember member) {
        EtcdMemberSpec spec = member.getSpec();
        String name = member.getMetadata().getName();
        return new PersistentVolumeClaimBuilder()
                .withNewMetadata()
                .withName(Names.dataPvc(name))
                .withNamespace(member.getMetadata().getNamespace())
                .withLabels(
                        Labels.withUserLabels(Labels.member(spec.getClusterName(), name), spec.getAdditionalMetadata()))
                .withAnnotations(Labels.withUserAnnotations(Map.of(), spec.getAdditionalMetadata()))
                .withOwnerReferences(Owners.controller(member))
                .endMetadata()
                .withNewSpec()
                .withAccessModes("ReadWriteOnce")
                .withStorageClassName(spec.getStorage().getStorageClassName())
                .withNewResources()
                .addToRequests("storage", spec.getStorage().getSize())
                .endResources()
                .endSpec()
                .build();
    }
}
