package io.etcdoperator.operator.planner;

import io.etcdoperator.api.v1alpha2.ObservedClusterSpec;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Quantity;

/** Whether a member's data claim is smaller than the latched target's storage.size (then ExpandVolume grows it). */
public final class ClaimSize {

    private ClaimSize() {}

    /** The claim asks for less than the latched size (a claim being resized already asks for the new size). */
    public static boolean behind(PersistentVolumeClaim pvc, ObservedClusterSpec target) {
        if (pvc == null
                || target == null
                || target.getStorage() == null
                || target.getStorage().getSize() == null
                || pvc.getSpec().getResources() == null
                || pvc.getSpec().getResources().getRequests() == null) {
            return false;
        }
        Quantity requested = pvc.getSpec().getResources().getRequests().get("storage");
        return requested != null
                && requested
                                .getNumericalAmount()
                                .compareTo(target.getStorage().getSize().getNumericalAmount())
                        < 0;
    }
}
