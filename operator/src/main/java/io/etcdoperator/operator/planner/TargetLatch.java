package io.etcdoperator.operator.planner;

import io.etcdoperator.api.v1alpha2.EtcdClusterSpec;
import io.etcdoperator.api.v1alpha2.ObservedClusterSpec;
import io.etcdoperator.api.v1alpha2.StorageSpec;
import io.etcdoperator.operator.reason.Reason;
import io.fabric8.kubernetes.api.model.Quantity;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The locking pattern: the operator works towards status.observed, and adopts a changed spec only once that target is
 * reached (or, after the deadline, when the user changes the spec again). See docs/concepts.md#locking.
 */
public final class TargetLatch {

    public sealed interface Decision {}

    /** Latch the spec: first time, after convergence, or as a retry after the deadline. */
    public record Latch(Reason reason) implements Decision {}

    /** Keep working towards the latched target. */
    public record Keep() implements Decision {}

    /** The deadline passed with the target unreached; stop until the user edits the spec or moves the deadline. */
    public record Exceeded(boolean bootstrapFailed) implements Decision {}

    private TargetLatch() {}

    /**
     * @param complete the latched target is reached (member count, all ready, cluster formed)
     * @param specValid the spec passes {@link SpecRules}; an invalid spec is never latched
     */
    public static Decision decide(
            EtcdClusterSpec spec,
            Optional<ObservedClusterSpec> latched,
            boolean formed,
            boolean complete,
            Optional<Instant> deadline,
            Instant now,
            boolean specValid) {
        return decide(spec, latched, formed, complete, deadline, now, specValid, false);
    }

    /**
     * @param targetCrashLoops a member built from the latched target crash-loops (OOMKilled, a bad flag): the target
     *     itself is wrong and can never be reached, so a corrected spec is taken at once, not after the deadline
     */
    public static Decision decide(
            EtcdClusterSpec spec,
            Optional<ObservedClusterSpec> latched,
            boolean formed,
            boolean complete,
            Optional<Instant> deadline,
            Instant now,
            boolean specValid,
            boolean targetCrashLoops) {
        if (latched.isEmpty()) {
            return specValid ? new Latch(Reason.INITIAL_SNAPSHOT) : new Keep();
        }
        boolean same = !specValid || sameTarget(spec, latched.get());
        boolean expired = deadline.map(d -> !now.isBefore(d)).orElse(false);
        if (!complete && expired) {
            if (!same && formed) {
                return new Latch(Reason.RETRY_AFTER_DEADLINE);
            }
            return new Exceeded(!formed);
        }
        if (!same && (complete || (formed && (targetCrashLoops || fewerReplicasOnly(spec, latched.get()))))) {
            // fewer replicas at once: a scale-up that cannot finish (its learner's Pod never starts) is reverted this
            // way
            return new Latch(Reason.SPEC_CHANGED);
        }
        return new Keep();
    }

    /**
     * Only spec.replicas changed, and downwards. The planner already takes any target mid-change (after a deadline),
     * so a lower count needs no wait; docs/concepts.md#locking says why it is the one exception.
     */
    static boolean fewerReplicasOnly(EtcdClusterSpec spec, ObservedClusterSpec latched) {
        int before = SpecRules.replicas(latched);
        ObservedClusterSpec sameCount = copy(latched);
        sameCount.setReplicas(SpecRules.replicas(spec));
        return SpecRules.replicas(spec) < before && sameTarget(spec, sameCount);
    }

    /** The snapshot that goes into status.observed. */
    public static ObservedClusterSpec snapshot(EtcdClusterSpec spec) {
        ObservedClusterSpec o = new ObservedClusterSpec();
        o.setReplicas(SpecRules.replicas(spec));
        o.setVersion(spec.getVersion());
        o.setStorage(storageOrDefault(spec.getStorage()));
        o.setResources(spec.getResources());
        o.setAdditionalMetadata(spec.getAdditionalMetadata());
        o.setAffinity(spec.getAffinity());
        o.setTopologySpreadConstraints(spec.getTopologySpreadConstraints());
        o.setOptions(spec.getOptions());
        o.setImagePullSecrets(spec.getImagePullSecrets());
        o.setTls(spec.getTls());
        o.setAuth(spec.getAuth());
        o.setBootstrap(spec.getBootstrap());
        return o;
    }

    /** A field-by-field copy (the nested objects are shared: callers replace fields, never edit them). */
    static ObservedClusterSpec copy(ObservedClusterSpec s) {
        ObservedClusterSpec o = new ObservedClusterSpec();
        o.setReplicas(s.getReplicas());
        o.setVersion(s.getVersion());
        o.setStorage(s.getStorage());
        o.setResources(s.getResources());
        o.setAdditionalMetadata(s.getAdditionalMetadata());
        o.setAffinity(s.getAffinity());
        o.setTopologySpreadConstraints(s.getTopologySpreadConstraints());
        o.setOptions(s.getOptions());
        o.setImagePullSecrets(s.getImagePullSecrets());
        o.setTls(s.getTls());
        o.setAuth(s.getAuth());
        o.setBootstrap(s.getBootstrap());
        return o;
    }

    /** Fields whose change is new work. TLS, auth and bootstrap are immutable and checked by SpecRules instead. */
    static boolean sameTarget(EtcdClusterSpec spec, ObservedClusterSpec latched) {
        StorageSpec a = storageOrDefault(spec.getStorage());
        StorageSpec b = storageOrDefault(latched.getStorage());
        return SpecRules.replicas(spec) == SpecRules.replicas(latched)
                && Objects.equals(spec.getVersion(), latched.getVersion())
                && SpecRules.sameAmount(a.getSize(), b.getSize())
                && Objects.equals(medium(a), medium(b))
                && Objects.equals(spec.getResources(), latched.getResources())
                && Objects.equals(spec.getAdditionalMetadata(), latched.getAdditionalMetadata())
                && Objects.equals(spec.getAffinity(), latched.getAffinity())
                && Objects.equals(
                        emptyAsNull(spec.getTopologySpreadConstraints()),
                        emptyAsNull(latched.getTopologySpreadConstraints()))
                && Objects.equals(spec.getOptions(), latched.getOptions())
                && Objects.equals(emptyAsNull(spec.getImagePullSecrets()), emptyAsNull(latched.getImagePullSecrets()));
    }

    private static String medium(StorageSpec s) {
        return s.getMedium() == null ? "" : s.getMedium();
    }

    private static <T> List<T> emptyAsNull(List<T> list) {
        return list == null || list.isEmpty() ? null : list;
    }

    static StorageSpec storageOrDefault(StorageSpec storage) {
        StorageSpec s = new StorageSpec();
        s.setSize(storage != null && storage.getSize() != null ? storage.getSize() : new Quantity("1Gi"));
        s.setMedium(storage != null && storage.getMedium() != null ? storage.getMedium() : "");
        s.setStorageClassName(storage == null ? null : storage.getStorageClassName());
        return s;
    }
}
