package io.etcdoperator.operator.planner;

import io.etcdoperator.api.v1alpha2.EtcdClusterSpec;
import io.etcdoperator.api.v1alpha2.EtcdClusterStatus;
import io.etcdoperator.api.v1alpha2.ObservedClusterSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Everything the operator refuses to carry out of a spec, given what it latched and what runs. */
public final class Refusals {

    private Refusals() {}

    public static List<Refusal> of(EtcdClusterSpec spec, EtcdClusterStatus status) {
        List<Refusal> out = new ArrayList<>(
                SpecRules.checkSpec(spec).stream().map(Refusal::invalid).toList());
        ObservedClusterSpec latched = status.getObserved();
        if (latched != null) {
            out.addAll(SpecRules.checkTransition(spec, withImmutablesFrom(spec, latched, status)).stream()
                    .map(Refusal::invalid)
                    .toList());
        }
        if (VersionPolicy.EtcdVersion.parse(spec.getVersion()).isEmpty()) {
            return out; // SpecRules already names a malformed version
        }
        if (latched == null || latched.getVersion() == null) {
            VersionPolicy.checkRunnable(spec.getVersion()).ifPresent(out::add);
        } else if (!spec.getVersion().equals(latched.getVersion())) {
            String running = Optional.ofNullable(status.getVersion()).orElse(latched.getVersion());
            VersionPolicy.checkChange(running, spec.getVersion(), Boolean.TRUE.equals(status.getAuthEnabled()))
                    .ifPresent(out::add);
        }
        return out;
    }

    /**
     * Clusters taken over from cozystack's operator have no tls, auth or bootstrap in status.observed (it does not
     * latch them): the target with those from the spec, to latch once. Ours always reported a running version by
     * then, theirs never does.
     */
    public static Optional<ObservedClusterSpec> takenOverTarget(EtcdClusterSpec spec, EtcdClusterStatus status) {
        boolean anyToLatch = spec.getTls() != null || spec.getAuth() != null || spec.getBootstrap() != null;
        return anyToLatch && takenOver(status)
                ? Optional.of(withImmutablesFrom(spec, status.getObserved(), status))
                : Optional.empty(); // without any of the three there is nothing to latch, now or at the next pass
    }

    private static ObservedClusterSpec withImmutablesFrom(
            EtcdClusterSpec spec, ObservedClusterSpec latched, EtcdClusterStatus status) {
        if (!takenOver(status)) {
            return latched;
        }
        ObservedClusterSpec copy = TargetLatch.copy(latched);
        copy.setTls(spec.getTls());
        copy.setAuth(spec.getAuth());
        copy.setBootstrap(spec.getBootstrap());
        return copy;
    }

    private static boolean takenOver(EtcdClusterStatus status) {
        ObservedClusterSpec o = status.getObserved();
        return o != null
                && status.getVersion() == null
                && status.getClusterID() != null
                && o.getTls() == null
                && o.getAuth() == null
                && o.getBootstrap() == null;
    }
}
