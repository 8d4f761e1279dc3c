package io.etcdoperator.operator.planner;

import io.etcdoperator.api.v1alpha2.EtcdOperatorApi;
import io.etcdoperator.operator.planner.MemberView.MemberPod;
import io.etcdoperator.operator.planner.MemberView.Volume;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Decides the member controller's one next step. A memory member whose Pod is gone never gets one again (its data
 * went with it); a PVC member's failed Pod is replaced on the same volume; nothing is started over a foreign PVC or
 * Pod, without its TLS Secret, or as a restoring seed without an agent.
 */
public final class MemberPlanner {

    private MemberPlanner() {}

    public static MemberStep next(MemberView view) {
        if (view.pending()) {
            return new MemberStep.AwaitInitialCluster();
        }
        if (view.dormant()) {
            return new MemberStep.Park(view.pod().filter(p -> !p.deleting()).isPresent());
        }
        if (view.memoryBacked() && view.podLost()) {
            return new MemberStep.ReportLost();
        }
        Optional<String> failed = view.pod().flatMap(MemberPod::failed);
        if (!view.memoryBacked() && failed.isPresent()) {
            return new MemberStep.RecreateFailedPod(failed.get());
        }
        if (view.volume() == Volume.FOREIGN) {
            return new MemberStep.Blocked(
                    "PVC " + view.claim() + " is owned by another object; waiting for it to be garbage-collected",
                    true);
        }
        if (view.pod().isEmpty()) {
            return create(view);
        }
        if (view.volume() == Volume.MISSING) {
            return new MemberStep.CreateVolume();
        }
        MemberPod pod = view.pod().get();
        if (!pod.controlled()) {
            return new MemberStep.Blocked("Pod " + pod.name() + " belongs to another owner", false);
        }
        return labels(view, pod).orElseGet(MemberStep.Report::new);
    }

    private static MemberStep create(MemberView view) {
        boolean blocked = view.missingSecret().isPresent() || (view.restores() && !view.agent());
        if (blocked && view.volume() == Volume.MISSING) {
            return new MemberStep.CreateVolume(); // the claim may bind while the Pod waits
        }
        if (view.missingSecret().isPresent()) {
            return new MemberStep.Blocked(view.missingSecret().get(), false);
        }
        if (view.restores() && !view.agent()) {
            return new MemberStep.RefuseRestore();
        }
        return new MemberStep.CreatePod(view.volume() == Volume.MISSING, view.existingCluster(), view.restores());
    }

    /** The operator's labels come back when edited away (Services and the PDB select by them); the role follows etcd. */
    private static Optional<MemberStep> labels(MemberView view, MemberPod pod) {
        Map<String, String> patch = new LinkedHashMap<>();
        view.labels().forEach((k, v) -> {
            if (!v.equals(pod.labels().get(k))) {
                patch.put(k, v);
            }
        });
        boolean labelled = EtcdOperatorApi.ROLE_VOTER.equals(pod.labels().get(EtcdOperatorApi.LABEL_ROLE));
        if (view.voter() == labelled && patch.isEmpty()) {
            return Optional.empty();
        }
        Set<String> restored = new LinkedHashSet<>(patch.keySet());
        patch.put(EtcdOperatorApi.LABEL_ROLE, view.voter() ? EtcdOperatorApi.ROLE_VOTER : null);
        return Optional.of(new MemberStep.PatchLabels(patch, restored));
    }
}
