package io.etcdoperator.operator.cluster;

import io.etcdoperator.api.v1alpha2.EtcdCluster;
import io.etcdoperator.etcd.EtcdAdmin;
import io.etcdoperator.etcd.EtcdException;
import io.etcdoperator.operator.cluster.StepExecutor.Outcome;
import io.etcdoperator.operator.events.EventRecorder;
import io.etcdoperator.operator.planner.ObservedCluster;
import io.etcdoperator.operator.reads.SecretReads;
import io.etcdoperator.operator.reason.Reason;
import io.etcdoperator.operator.resources.Names;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The actions of spec.auth.enabled; the planner decides when (EnableAuth once the cluster converged, LatchAuth when
 * etcd already requires auth). status.authEnabled is the sole switch for dialing with credentials. See docs/auth.md.
 */
final class RootAuth {

    private static final Logger LOG = LoggerFactory.getLogger(RootAuth.class);
    static final Duration RETRY = Duration.ofSeconds(10);
    static final String PASSWORD_KEY = "password";

    private final EventRecorder events;
    private final RootPasswords passwords;
    private final LeaseCheck lease;

    RootAuth(KubernetesClient client, SecretReads secrets, EventRecorder events, LeaseCheck lease) {
        this.events = events;
        this.passwords = new RootPasswords(client, secrets);
        this.lease = lease;
    }

    /** Latches status.authEnabled (the caller writes it); from then on every dial carries root's credentials. */
    Outcome latch(EtcdCluster cluster, String message) {
        events.normal(cluster, Reason.AUTH_ENABLED, message);
        LOG.atInfo().addKeyValue("cluster", cluster.getMetadata().getName()).log(message);
        return new Outcome(Reason.AUTH_ENABLED, message, StepExecutor.SOON, Optional.empty(), true, false);
    }

    /** User root with the Secret's password, role root, AuthEnable; a bad Secret or a refusal is a named reason. */
    Outcome enable(EtcdCluster cluster, EtcdAdmin etcd) {
        Optional<String> password = passwords.wanted(cluster);
        if (password.isEmpty()) {
            return Outcome.problem(
                    Reason.AUTH_SECRET_INVALID,
                    "Secret " + secretName(cluster) + " is missing or has no non-empty '" + PASSWORD_KEY
                            + "'; authentication stays off",
                    RETRY);
        }
        try {
            etcd.enableAuth(password.get());
            lease.ensureHeld();
            passwords.write(cluster, password.get(), Optional.empty()); // a crash before it: RecordRootPassword follows
            return latch(cluster, "etcd authentication enabled; user root holds role root");
        } catch (EtcdException e) {
            LOG.atWarn()
                    .addKeyValue("cluster", cluster.getMetadata().getName())
                    .addKeyValue("error", e.getMessage())
                    .log("enabling etcd authentication failed; will retry");
            return Outcome.problem(
                    Reason.AUTH_ENABLE_FAILED, "enabling authentication failed: " + e.getMessage(), RETRY);
        }
    }

    /** The user's password, which the operator dialled with, becomes its copy of what etcd has. */
    Outcome record(EtcdCluster cluster) {
        Optional<String> wanted = passwords.read(cluster).wanted();
        if (wanted.isEmpty()) {
            return secretInvalid(cluster);
        }
        passwords.write(cluster, wanted.get(), Optional.empty());
        return changed(
                cluster,
                Reason.ROOT_PASSWORD_RECORDED,
                "the operator keeps its own copy of root's password in "
                        + "Secret "
                        + Names.appliedRootSecret(cluster.getMetadata().getName())
                        + ", so a new password in " + secretName(cluster) + " never locks it out");
    }

    /**
     * The copy notes the new password as pending, etcd takes it, the copy says it is etcd's: a crash after the change
     * leaves the pending one, which the next dial tries (FinishRootPasswordChange). No member restarts.
     */
    Outcome rotate(EtcdCluster cluster, EtcdAdmin etcd) {
        RootPasswords.View view = passwords.read(cluster);
        if (view.wanted().isEmpty() || view.applied().isEmpty()) {
            return secretInvalid(cluster);
        }
        passwords.write(cluster, view.applied().get(), view.wanted());
        lease.ensureHeld();
        try {
            etcd.changeRootPassword(view.wanted().get());
        } catch (EtcdException e) {
            return Outcome.problem(
                    Reason.AUTH_ENABLE_FAILED,
                    "etcd refused root's new password for now: " + e.getMessage() + "; the old one keeps working",
                    RETRY);
        }
        lease.ensureHeld();
        passwords.write(cluster, view.wanted().get(), Optional.empty());
        return changed(
                cluster,
                Reason.ROOT_PASSWORD_CHANGED,
                "root's password changed in etcd to the one in " + secretName(cluster)
                        + "; the operator dials with it from now on, no member restarted");
    }

    /** etcd accepted the pending or the user's password: the copy says so. */
    Outcome finish(EtcdCluster cluster, ObservedCluster.RootPassword accepted) {
        RootPasswords.View view = passwords.read(cluster);
        Optional<String> password =
                accepted == ObservedCluster.RootPassword.ETCD_HAS_NEXT ? view.next() : view.wanted();
        if (password.isEmpty()) {
            return secretInvalid(cluster);
        }
        passwords.write(cluster, password.get(), Optional.empty());
        return changed(
                cluster,
                Reason.ROOT_PASSWORD_CHANGED,
                "etcd already had root's new password (a change cut short "
                        + "was completed); the operator's copy follows");
    }

    private Outcome secretInvalid(EtcdCluster cluster) {
        return Outcome.problem(
                Reason.AUTH_SECRET_INVALID,
                "Secret " + secretName(cluster) + " is missing or has no " + "non-empty '" + PASSWORD_KEY
                        + "'; root's password is left as it is",
                RETRY);
    }

    private Outcome changed(EtcdCluster cluster, Reason reason, String message) {
        events.normal(cluster, reason, message);
        LOG.atInfo()
                .addKeyValue("cluster", cluster.getMetadata().getName())
                .addKeyValue("reason", reason.reason())
                .log(message);
        return Outcome.of(reason, message, StepExecutor.SOON);
    }

    private static String secretName(EtcdCluster cluster) {
        return cluster.getSpec().getAuth().getRootCredentialsSecretRef().getName();
    }
}
