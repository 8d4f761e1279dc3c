package io.etcdoperator.operator.tls;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.api.v1alpha2.EtcdMember;
import io.etcdoperator.operator.events.EventRecorder;
import io.etcdoperator.operator.planner.TlsWrite;
import io.etcdoperator.operator.reason.Reason;
import io.etcdoperator.operator.writes.MergePatch;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Carries out the cluster planner's {@link TlsWrite}s: one Secret (or one EtcdMember's stamp) each, from the Secrets
 * the pass observed; an event names what was written, never key material.
 */
public final class IssuedTlsSteps {

    private static final Logger LOG = LoggerFactory.getLogger(IssuedTlsSteps.class);

    private final KubernetesClient client;
    private final EventRecorder events;
    private final IssuedTlsWriter writer;

    public IssuedTlsSteps(KubernetesClient client, EventRecorder events) {
        this.client = client;
        this.events = events;
        this.writer = new IssuedTlsWriter(client);
    }

    public void write(TlsWrite step, EtcdCluster cluster, IssuedTlsObserver.State state, Instant now) {
        TlsNames names = state.names();
        String written = switch (step) {
            case TlsWrite.CreateCa s -> writer.createCa(cluster, names, now);
            case TlsWrite.IssueLeaf s -> "issued " + writer.issueLeaf(cluster, names, s.role(), state, now);
            case TlsWrite.RenewLeaf s ->
                "renewed (" + s.why().name().toLowerCase(Locale.ROOT) + ") "
                        + writer.issueLeaf(cluster, names, s.role(), state, now);
            case TlsWrite.SyncTrust s -> writer.syncTrust(names, s.role(), state);
            case TlsWrite.StartCaRotation s -> writer.startCaRotation(cluster, names, state, now);
            case TlsWrite.RetireOldCa s -> writer.retireOldCa(names, state);
            case TlsWrite.StampMaterial s -> null;
        };
        if (step instanceof TlsWrite.StampMaterial s) {
            stamp(cluster, s); // no event: the roll it starts has its own
        } else {
            record(cluster, step.reason(), written);
        }
    }

    /** The member controller copies the stamp onto the Pod it creates (MemberPods): a Pod records what it started with. */
    private void stamp(EtcdCluster cluster, TlsWrite.StampMaterial s) {
        MergePatch.of(
                client,
                EtcdMember::new,
                cluster.getMetadata().getNamespace(),
                s.member(),
                Map.of("metadata", Map.of("annotations", s.material().annotations())));
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
