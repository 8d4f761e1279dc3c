package io.etcdoperator.etcd;

import io.grpc.Status;
import io.grpc.StatusException;
import io.grpc.StatusRuntimeException;
import java.net.ConnectException;
import java.nio.channels.ClosedChannelException;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateExpiredException;
import java.security.cert.CertificateNotYetValidException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLException;

/**
 * Turns whatever jetcd, gRPC or netty threw into one {@link EtcdException} subtype. etcd reports most refusals
 * with generic gRPC codes, so the message text decides first and the status code only after that.
 */
final class FailureClassifier {

    private static final List<String> LEARNER_NOT_READY =
            List.of("can only promote a learner member which is in sync with leader", "is not in sync");
    private static final List<String> MEMBER_NOT_FOUND = List.of("member not found");
    // "can only promote a learner member" (without "which is in sync") means the member already votes.
    private static final List<String> MEMBERSHIP_REFUSED = List.of(
            "unhealthy cluster",
            "too many learner members",
            "not enough started members",
            "peer urls already exists",
            "member id already exist",
            "can only promote a learner member");
    // MoveLeader: sent to a follower, and a transferee that is unknown or a learner. ("no leader" is not "not leader".)
    private static final List<String> NOT_LEADER = List.of("etcdserver: not leader");
    private static final List<String> BAD_LEADER_TRANSFEREE = List.of("bad leader transferee");
    private static final List<String> AUTH_REJECTED = List.of("authentication failed", "invalid auth token");
    private static final List<String> AUTH_REQUIRED =
            List.of("user name is empty", "permission denied", "insufficient credentials");
    /** etcd's answer to credentials sent to a cluster whose auth is still off. */
    static final String AUTH_NOT_ENABLED = "authentication is not enabled";

    private FailureClassifier() {}

    static EtcdException classify(String action, Throwable failure) {
        List<Throwable> chain = chain(failure);
        String text = String.join(
                        " | ", chain.stream().map(FailureClassifier::describe).toList())
                .toLowerCase(Locale.ROOT);
        String message = action + " failed: " + reason(chain);
        if (expired(chain)) {
            return new EtcdException.TlsExpired(
                    action + " failed: a certificate has expired or is not yet valid (" + reason(chain) + ")", failure);
        }
        if (chain.stream().anyMatch(t -> t instanceof SSLException || t instanceof CertificateException)) {
            return new EtcdException.TlsRejected(message, failure);
        }
        if (containsAny(text, LEARNER_NOT_READY)) {
            return new EtcdException.LearnerNotReady(message, failure);
        }
        if (containsAny(text, MEMBER_NOT_FOUND)) {
            return new EtcdException.MemberNotFound(message, failure);
        }
        if (containsAny(text, MEMBERSHIP_REFUSED)) {
            return new EtcdException.MembershipRefused(message, failure);
        }
        if (containsAny(text, NOT_LEADER)) {
            return new EtcdException.NotLeader(message, failure);
        }
        if (containsAny(text, BAD_LEADER_TRANSFEREE)) {
            return new EtcdException.BadLeaderTransferee(message, failure);
        }
        if (containsAny(text, AUTH_REJECTED)) {
            return new EtcdException.AuthRejected(message, failure);
        }
        if (containsAny(text, AUTH_REQUIRED)) {
            return new EtcdException.AuthRequired(message, failure);
        }
        return byCode(chain, message, failure);
    }

    /** Whether any message in the failure's causal chain contains the phrase (case-insensitive). */
    static boolean mentions(Throwable failure, String phrase) {
        String wanted = phrase.toLowerCase(Locale.ROOT);
        return chain(failure).stream()
                .anyMatch(t -> describe(t).toLowerCase(Locale.ROOT).contains(wanted));
    }

    private static EtcdException byCode(List<Throwable> chain, String message, Throwable failure) {
        Set<Status.Code> codes = codes(chain);
        boolean transportDown = chain.stream()
                .anyMatch(t -> t instanceof TimeoutException
                        || t instanceof ConnectException
                        || t instanceof ClosedChannelException);
        if (transportDown || codes.contains(Status.Code.UNAVAILABLE) || codes.contains(Status.Code.DEADLINE_EXCEEDED)) {
            return new EtcdException.Unavailable(message, failure);
        }
        if (codes.contains(Status.Code.UNAUTHENTICATED)) {
            return new EtcdException.AuthRejected(message, failure);
        }
        if (codes.contains(Status.Code.PERMISSION_DENIED)) {
            return new EtcdException.AuthRequired(message, failure);
        }
        return new EtcdException(message, failure);
    }

    /**
     * Our side found an expired (or not yet valid) certificate in the server's chain, or etcd answered our client
     * certificate with the certificate_expired alert.
     */
    private static boolean expired(List<Throwable> chain) {
        return chain.stream()
                .anyMatch(t -> t instanceof CertificateExpiredException
                        || t instanceof CertificateNotYetValidException
                        || t instanceof CertPathValidatorException e
                                && e.getReason() == CertPathValidatorException.BasicReason.EXPIRED
                        || t instanceof SSLException
                                && describe(t).toLowerCase(Locale.ROOT).contains("certificate_expired"));
    }

    private static boolean containsAny(String text, List<String> phrases) {
        return phrases.stream().anyMatch(text::contains);
    }

    private static List<Throwable> chain(Throwable failure) {
        List<Throwable> chain = new ArrayList<>();
        for (Throwable t = failure; t != null && !chain.contains(t); t = t.getCause()) {
            chain.add(t);
        }
        return chain;
    }

    private static Set<Status.Code> codes(List<Throwable> chain) {
        Set<Status.Code> codes = new LinkedHashSet<>();
        chain.forEach(t -> status(t).ifPresent(s -> codes.add(s.getCode())));
        return codes;
    }

    private static Optional<Status> status(Throwable t) {
        if (t instanceof StatusRuntimeException e) {
            return Optional.of(e.getStatus());
        }
        if (t instanceof StatusException e) {
            return Optional.of(e.getStatus());
        }
        return Optional.empty();
    }

    private static String describe(Throwable t) {
        return status(t)
                .map(s -> s.getCode() + ": " + s.getDescription())
                .orElseGet(() -> t.getClass().getSimpleName() + ": " + t.getMessage());
    }

    /** The most telling text in the chain: the TLS error, else the deepest etcd/gRPC description, else the root. */
    private static String reason(List<Throwable> chain) {
        Optional<Throwable> tls =
                chain.stream().filter(t -> t instanceof SSLException).reduce((a, b) -> b);
        if (tls.isPresent()) {
            return "TLS: " + tls.get().getMessage();
        }
        String deepest = null;
        for (Throwable t : chain) {
            Optional<Status> s = status(t);
            if (s.isPresent() && s.get().getDescription() != null) {
                deepest = s.get().getCode() + ": " + s.get().getDescription();
            }
        }
        if (deepest != null) {
            return deepest;
        }
        Throwable root = chain.getLast();
        return root.getMessage() != null ? root.getMessage() : root.getClass().getSimpleName();
    }
}
