package io.etcdoperator.operator.planner;

import io.etcdoperator.api.v1alpha2.EtcdClusterSpec;
import io.etcdoperator.api.v1alpha2.ObservedClusterSpec;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Everything one pass of the cluster controller decides on once a target is latched: the spec and the target, the
 * target's deadline, the spec's refusals, the Services and the PodDisruptionBudget, operator-issued TLS material (empty
 * without it), and the cluster as observed.
 */
public record ClusterView(
        EtcdClusterSpec spec,
        ObservedClusterSpec target,
        Optional<Instant> deadline,
        Instant now,
        List<Refusal> refusals,
        OwnedObjects objects,
        Optional<IssuedTls> tls,
        ObservedCluster observed) {

    /** The same view after a write of this pass left the cluster-wide objects as {@code written}. */
    public ClusterView with(OwnedObjects written) {
        return new ClusterView(spec, target, deadline, now, refusals, written, tls, observed);
    }

    /** The same view after a TLS write of this pass, observed again. */
    public ClusterView with(IssuedTls observedAgain) {
        return new ClusterView(spec, target, deadline, now, refusals, objects, Optional.of(observedAgain), observed);
    }

    public int desired() {
        return SpecRules.replicas(target);
    }
}
