package io.etcdoperator.etcd;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.net.ConnectException;
import java.security.cert.CertPathValidatorException;
import java.security.cert.CertificateExpiredException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class FailureClassifierTest {

    static Stream<Arguments> etcdAnswers() {
        return Stream.of(
                Arguments.of(
                        Status.Code.FAILED_PRECONDITION,
                        "etcdserver: can only promote a learner member which is in sync with leader",
                        EtcdException.LearnerNotReady.class),
                Arguments.of(
                        Status.Code.FAILED_PRECONDITION, "learner is not in sync", EtcdException.LearnerNotReady.class),
                Arguments.of(Status.Code.NOT_FOUND, "etcdserver: member not found", EtcdException.MemberNotFound.class),
                Arguments.of(
                        Status.Code.UNAVAILABLE,
                        "etcdserver: unhealthy cluster",
                        EtcdException.MembershipRefused.class),
                Arguments.of(
                        Status.Code.FAILED_PRECONDITION,
                        "etcdserver: too many learner members in cluster",
                        EtcdException.MembershipRefused.class),
                Arguments.of(
                        Status.Code.FAILED_PRECONDITION,
                        "etcdserver: re-configuration failed due to not enough started members",
                        EtcdException.MembershipRefused.class),
                Arguments.of(
                        Status.Code.FAILED_PRECONDITION,
                        "etcdserver: can only promote a learner member",
                        EtcdException.MembershipRefused.class),
                Arguments.of(
                        Status.Code.FAILED_PRECONDITION,
                        "etcdserver: Peer URLs already exists",
                        EtcdException.MembershipRefused.class),
                Arguments.of(
                        Status.Code.INVALID_ARGUMENT,
                        "etcdserver: user name is empty",
                        EtcdException.AuthRequired.class),
                Arguments.of(
                        Status.Code.PERMISSION_DENIED,
                        "etcdserver: permission denied",
                        EtcdException.AuthRequired.class),
                Arguments.of(Status.Code.UNKNOWN, "insufficient credentials", EtcdException.AuthRequired.class),
                Arguments.of(
                        Status.Code.INVALID_ARGUMENT,
                        "etcdserver: authentication failed, invalid user ID or password",
                        EtcdException.AuthRejected.class),
                Arguments.of(
                        Status.Code.UNAUTHENTICATED,
                        "etcdserver: invalid auth token",
                        EtcdException.AuthRejected.class),
                Arguments.of(Status.Code.FAILED_PRECONDITION, "etcdserver: not leader", EtcdException.NotLeader.class),
                Arguments.of(
                        Status.Code.FAILED_PRECONDITION,
                        "etcdserver: bad leader transferee",
                        EtcdException.BadLeaderTransferee.class),
                Arguments.of(
                        Status.Code.UNAVAILABLE,
                        "etcdserver: request timed out, leader transfer took too long",
                        EtcdException.Unavailable.class),
                Arguments.of(Status.Code.UNAVAILABLE, "etcdserver: no leader", EtcdException.Unavailable.class),
                Arguments.of(Status.Code.UNAVAILABLE, "etcdserver: leader changed", EtcdException.Unavailable.class),
                Arguments.of(
                        Status.Code.UNAVAILABLE,
                        "etcdserver: rpc not supported for learner",
                        EtcdException.Unavailable.class),
                Arguments.of(
                        Status.Code.DEADLINE_EXCEEDED, "deadline exceeded after 4.9s", EtcdException.Unavailable.class),
                Arguments.of(Status.Code.UNAUTHENTICATED, null, EtcdException.AuthRejected.class),
                Arguments.of(Status.Code.PERMISSION_DENIED, null, EtcdException.AuthRequired.class));
    }

    @ParameterizedTest(name = "{0} {1} -> {2}")
    @MethodSource("etcdAnswers")
    void grpcStatusFromEtcd(Status.Code code, String description, Class<? extends EtcdException> expected) {
        var failure = new StatusRuntimeException(Status.fromCode(code).withDescription(description));

        assertThat(FailureClassifier.classify("do it", failure))
                .isExactlyInstanceOf(expected)
                .hasCause(failure);
    }

    @Test
    void messageNamesTheActionAndEtcdsReason() {
        var failure = new StatusRuntimeException(Status.NOT_FOUND.withDescription("etcdserver: member not found"));

        assertThat(FailureClassifier.classify("remove member 00000000000004d2", failure))
                .hasMessage("remove member 00000000000004d2 failed: NOT_FOUND: etcdserver: member not found");
    }

    @Test
    void authenticationFailureKeepsTheInnerReason() {
        var inner = new StatusRuntimeException(Status.INVALID_ARGUMENT.withDescription(
                "etcdserver: authentication failed, invalid user ID or password"));
        var outer = new StatusRuntimeException(Status.UNAUTHENTICATED.withCause(inner));

        EtcdException classified = FailureClassifier.classify("list members", outer);

        assertThat(classified)
                .isInstanceOf(EtcdException.AuthRejected.class)
                .hasMessageContaining("authentication failed, invalid user ID or password");
    }

    @Test
    void handshakeFailureIsTlsRejectedEvenUnderUnavailable() {
        var handshake = new SSLHandshakeException("PKIX path building failed");
        var failure = new StatusRuntimeException(
                Status.UNAVAILABLE.withDescription("io exception").withCause(handshake));

        assertThat(FailureClassifier.classify("list members", failure))
                .isInstanceOf(EtcdException.TlsRejected.class)
                .hasMessageContaining("PKIX path building failed");
    }

    @Test
    void expiredServerCertificateIsTlsExpired() {
        var handshake = new SSLHandshakeException("PKIX path validation failed: validity check failed");
        handshake.initCause(new CertPathValidatorException(
                "validity check failed",
                new CertificateExpiredException("NotAfter: Sat Mar 01 12:00:00 UTC 2025"),
                null,
                -1,
                CertPathValidatorException.BasicReason.EXPIRED));
        var failure = new StatusRuntimeException(
                Status.UNAVAILABLE.withDescription("io exception").withCause(handshake));

        assertThat(FailureClassifier.classify("list members", failure))
                .isExactlyInstanceOf(EtcdException.TlsExpired.class)
                .isInstanceOf(EtcdException.TlsRejected.class)
                .hasMessageContaining("expired")
                .hasMessageContaining("validity check failed");
    }

    @Test
    void certificateExpiredAlertFromEtcdIsTlsExpired() {
        var alert = new SSLHandshakeException("Received fatal alert: certificate_expired");

        assertThat(FailureClassifier.classify("status", alert)).isExactlyInstanceOf(EtcdException.TlsExpired.class);
        assertThat(FailureClassifier.classify(
                        "status", new SSLHandshakeException("Received fatal alert: bad_certificate")))
                .isExactlyInstanceOf(EtcdException.TlsRejected.class);
    }

    @Test
    void transportFailuresWithoutStatusAreUnavailable() {
        assertThat(FailureClassifier.classify("a", new CompletionException(new ConnectException("Connection refused"))))
                .isInstanceOf(EtcdException.Unavailable.class);
        assertThat(FailureClassifier.classify("a", new TimeoutException()))
                .isInstanceOf(EtcdException.Unavailable.class);
    }

    @Test
    void unknownRefusalStaysAPlainEtcdException() {
        var failure =
                new StatusRuntimeException(Status.FAILED_PRECONDITION.withDescription("etcdserver: something new"));

        assertThat(FailureClassifier.classify("a", failure)).isExactlyInstanceOf(EtcdException.class);
    }

    @Test
    void mentionsSearchesTheWholeChainIgnoringCase() {
        var inner = new StatusRuntimeException(
                Status.FAILED_PRECONDITION.withDescription("etcdserver: authentication is not enabled"));
        var outer = new StatusRuntimeException(Status.UNAUTHENTICATED.withCause(inner));

        assertThat(FailureClassifier.mentions(outer, "Authentication Is Not Enabled"))
                .isTrue();
        assertThat(FailureClassifier.mentions(outer, "member not found")).isFalse();
    }
}
