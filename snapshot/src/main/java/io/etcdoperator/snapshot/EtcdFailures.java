package io.etcdoperator.snapshot;

import io.etcdoperator.etcd.EtcdException;

/** What an etcd failure means for a snapshot, in the reasons the EtcdSnapshot status uses. */
final class EtcdFailures {

    private EtcdFailures() {}

    static SnapshotFailure translate(EtcdException e) {
        if (e instanceof EtcdException.Unavailable) {
            return new SnapshotFailure(SnapshotFailure.Reason.CLUSTER_UNREACHABLE, e.getMessage(), e);
        }
        if (e instanceof EtcdException.AuthRejected || e instanceof EtcdException.AuthRequired) {
            return new SnapshotFailure(SnapshotFailure.Reason.ETCD_AUTH_REJECTED, e.getMessage(), e);
        }
        if (e instanceof EtcdException.TlsRejected) {
            return new SnapshotFailure(SnapshotFailure.Reason.ETCD_TLS_REJECTED, e.getMessage(), e);
        }
        return new SnapshotFailure(SnapshotFailure.Reason.CLUSTER_UNREACHABLE, e.getMessage(), e);
    }
}
