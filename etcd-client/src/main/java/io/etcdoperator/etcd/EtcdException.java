package io.etcdoperator.etcd;

/** Base of every failure the etcd port reports. Messages never carry secrets. */
public class EtcdException extends RuntimeException {

    public EtcdException(String message, Throwable cause) {
        super(message, cause);
    }

    public EtcdException(String message) {
        super(message);
    }

    /** No endpoint answered within the timeout, or the connection failed. */
    public static class Unavailable extends EtcdException {
        public Unavailable(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** MemberPromote refused because the learner has not caught up yet ("can only promote a learner member which is in sync with leader"). */
    public static class LearnerNotReady extends EtcdException {
        public LearnerNotReady(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** The member id is not (or no longer) part of the cluster. */
    public static class MemberNotFound extends EtcdException {
        public MemberNotFound(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** etcd refused a membership change that would make the cluster unhealthy, or it already has a learner. */
    public static class MembershipRefused extends EtcdException {
        public MembershipRefused(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** MoveLeader reached a member that is not the leader ("etcdserver: not leader"): find the leader again. */
    public static class NotLeader extends EtcdException {
        public NotLeader(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** MoveLeader named a transferee that is not a voting member ("etcdserver: bad leader transferee"). */
    public static class BadLeaderTransferee extends EtcdException {
        public BadLeaderTransferee(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** Authentication is on and the call carried no credentials ("user name is empty", "permission denied"). */
    public static class AuthRequired extends EtcdException {
        public AuthRequired(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** Credentials were presented and rejected ("authentication failed", "invalid auth token"). */
    public static class AuthRejected extends EtcdException {
        public AuthRejected(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** TLS handshake failed: unknown CA, expired or mismatched certificate. */
    public static class TlsRejected extends EtcdException {
        public TlsRejected(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /** A certificate in the handshake is outside its validity window: renew it (a subtype, so TlsRejected still matches). */
    public static class TlsExpired extends TlsRejected {
        public TlsExpired(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
