package io.etcdoperator.operator.resources;

import io.etcdoperator.api.v1alpha2.EtcdOperatorApi;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import java.util.List;
import java.util.Optional;

/** Controller owner references, so garbage collection cascades cluster → member → Pod/PVC. */
public final class Owners {

    private Owners() {}

    public static OwnerReference controller(HasMetadata owner) {
        return new OwnerReferenceBuilder()
                .withApiVersion(owner.getApiVersion())
                .withKind(owner.getKind())
                .withName(owner.getMetadata().getName())
                .withUid(owner.getMetadata().getUid())
                .withController(true)
                .withBlockOwnerDeletion(true)
                .build();
    }

    /** Whether {@code object} is controlled by the owner with this UID (a stale incarnation is not). */
    public static boolean controlledBy(HasMetadata object, String ownerUid) {
        return controllerRef(object)
                .filter(r -> ownerUid != null && ownerUid.equals(r.getUid()))
                .isPresent();
    }

    /** Whether some EtcdCluster controls {@code object}: the operator made it (a Secret of its own, say). */
    public static boolean controlledByACluster(HasMetadata object) {
        return controllerRef(object)
                .filter(r -> "EtcdCluster".equals(r.getKind())
                        && r.getApiVersion() != null
                        && r.getApiVersion().startsWith(EtcdOperatorApi.GROUP + "/"))
                .isPresent();
    }

    private static Optional<OwnerReference> controllerRef(HasMetadata object) {
        List<OwnerReference> refs =
                object.getMetadata() == null ? null : object.getMetadata().getOwnerReferences();
        return refs == null
                ? Optional.empty()
                : refs.stream()
                        .filter(r -> Boolean.TRUE.equals(r.getController()))
                        .findFirst();
    }
}
