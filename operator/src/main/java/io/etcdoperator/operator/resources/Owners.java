package io.etcdoperator.operator.resources;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import java.util.List;

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
    List<OwnerReference> refs = object.getMetadata().getOwnerReferences();
    return refs != null && refs.stream()
        .anyMatch(r -> Boolean.TRUE.equals(r.getController()) && ownerUid != null && ownerUid.equals(r.getUid()));
  }
}
