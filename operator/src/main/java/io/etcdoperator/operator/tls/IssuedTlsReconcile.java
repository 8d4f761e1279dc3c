package io.etcdoperator.operator.tls;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.operator.events.EventRecorder;
import io.etcdoperator.operator.reads.KubeReads;
import io.etcdoperator.operator.reads.SecretReads;
import io.etcdoperator.operator.reason.Reason;
import io.etcdoperator.operator.resources.MemberMaterial;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Operator-issued TLS for one cluster pass, before the cluster planner: observe, ask {@link IssuedTlsPlanner},
 * execute. Secret-only steps repeat within the pass (a new cluster gets its CA and leaves at once). Restarting members
 * onto new material is the cluster roller's (the material is part of the Pod revision); a roll or wait ends this part.
 */
public final class IssuedTlsReconcile {

    private static final Logger LOG = LoggerFactory.getLogger(IssuedTlsReconcile.class);
    static final Duration SOON = Duration.ofSeconds(5);
    /** More than any legal sequence of Secret writes (CA, three leaves, three trust syncs) needs in one pass. */
    private static final int MAX_WRITES = 8;

    private final KubernetesClient client;
    private final EventRecorder events;
    private final String clusterDomain;
    private final IssuedTlsObserver observer;
    private final IssuedTlsWriter writer;

    public IssuedTlsReconcile(
            KubernetesClient client, SecretReads secrets, EventRecorder events, String clusterDomain) {
        this.client = client;
        this.events = events;
        this.clusterDomain = clusterDomain;
        this.observer = new IssuedTlsObserver(secrets);
        this.writer = new IssuedTlsWriter(client);
    }

    /**
     * When TLS wants the next look (the caller takes the earlier of this and its own recheck), and the material a member
     * created in this pass starts with: stamped at creation, its first Pod needs no restart onto it.
     */
    public record Pass(
            Duration recheck, Optional<MemberMaterial> material, Optional<Instant> renewal, Optional<Instant> expiry) {

        static Pass of(Duration recheck, Optional<MemberMaterial> material, IssuedTls observed) {
            return new Pass(recheck, material, observed.earliestRenewal(), observed.earliestExpiry());
        }
    }

    public static boolean applies(EtcdCluster cluster) {
        return cluster.getSpec().getTls() != null && cluster.getSpec().getTls().getOperatorIssued() != null;
    }

    /** {@code reads}: where members and their Pods are read (the caches in a cache pass). */
    public Pass reconcile(EtcdCluster cluster, Instant now, KubeReads reads) {
        TlsNames names = new TlsNames(
                cluster.getMetadata().getName(), cluster.getMetadata().getNamespace(), clusterDomain);
        for (int writes = 0; writes < MAX_WRITES; writes++) {
            IssuedTlsObserver.State state = observer.observe(cluster, names, reads);
            Optional<MemberMaterial> desired = state.view().desired();
            desired.ifPresent(d -> stamp(state, d));
            TlsStep step = IssuedTlsPlanner.next(state.view(), now);
            LOG.atDebug()
                    .addKeyValue("cluster", names.cluster())
                    .addKeyValue("step", step)
                    .log("tls planned");
            switch (step) {
                case TlsStep.CreateCa s -> record(cluster, Reason.TLS_CA_CREATED, writer.createCa(cluster, names, now));
                case TlsStep.IssueLeaf s ->
                    record(
                            cluster,
                            Reason.TLS_CERTIFICATE_ISSUED,
                            "issued " + writer.issueLeaf(cluster, names, s.role(), state, now));
                case TlsStep.RenewLeaf s ->
                    record(
                            cluster,
                            Reason.TLS_CERTIFICATE_ISSUED,
                            "renewed ("
                                    + s.why().name().toLowerCase(Locale.ROOT) + ") "
                                    + writer.issueLeaf(cluster, names, s.role(), state, now));
                case TlsStep.SyncTrust s ->
                    record(cluster, Reason.TLS_TRUST_SYNCED, writer.syncTrust(names, s.role(), state));
                case TlsStep.StartCaRotation s ->
                    record(cluster, Reason.TLS_CA_ROTATION_STARTED, writer.startCaRotation(cluster, names, state, now));
                case TlsStep.RetireOldCa s ->
                    record(cluster, Reason.TLS_OLD_CA_RETIRED, writer.retireOldCa(names, state));
                case TlsStep.RollMember s -> {
                    LOG.atDebug()
                            .addKeyValue("cluster", names.cluster())
                            .addKeyValue("member", s.member())
                            .log("member runs stale TLS material; the cluster roller restarts it");
                    return Pass.of(SOON, desired, state.view());
                }
                case TlsStep.WaitHealthy s -> {
                    LOG.atDebug()
                            .addKeyValue("cluster", names.cluster())
                            .addKeyValue("member", s.member())
                            .log("tls roll waits for a healthy member");
                    return Pass.of(SOON, desired, state.view());
                }
                case TlsStep.Converged s -> {
                    Duration until = Duration.between(now, s.recheckAt());
                    return Pass.of(until.isNegative() ? SOON : until, desired, state.view());
                }
            }
        }
        return new Pass(SOON, Optional.empty(), Optional.empty(), Optional.empty());
    }

    /**
     * The EtcdMember carries the material the Secrets hold now; the member controller copies it onto the Pod it
     * creates (MemberPods), which is how a Pod records what it started with.
     */
    private void stamp(IssuedTlsObserver.State state, MemberMaterial desired) {
        Map<String, String> wanted = desired.annotations();
        for (EtcdMember m : state.members()) {
            Map<String, String> has = m.getMetadata().getAnnotations() == null
                    ? Map.of()
                    : m.getMetadata().getAnnotations();
            boolean same = wanted.entrySet().stream().allMatch(e -> Objects.equals(has.get(e.getKey()), e.getValue()));
            if (!same) {
                client.resources(EtcdMember.class)
                        .inNamespace(m.getMetadata().getNamespace())
                        .withName(m.getMetadata().getName())
                        .patch(
                                PatchContext.of(PatchType.JSON_MERGE),
                                client.getKubernetesSerialization()
                                        .asJson(Map.of("metadata", Map.of("annotations", wanted))));
            }
        }
    }

    private void record(EtcdCluster cluster, Reason reason, String message) {
        events.normal(cluster, reason, message);
        LOG.atInfo()
                .addKeyValue("cluster", cluster.getMetadata().getName())
                .addKeyValue("reason", reason.reason())
                .addKeyValue("detail", message)
                .log("tls step");
    }
}
