package io.etcdoperator.snapshot;

import java.nio.file.Path;

/**
 * The member a snapshot is restored into. The cluster token must differ from the snapshot's cluster: etcd derives
 * the new cluster ID from the member names, peer URLs and token.
 */
public record RestoreTarget(
        Path dataDir, String memberName, String initialCluster, String clusterToken, String peerUrls) {

    public RestoreTarget {
        require(memberName, "member name");
        require(initialCluster, "initial cluster");
        require(clusterToken, "initial cluster token");
        require(peerUrls, "peer URLs");
    }

    private static void require(String value, String what) {
        if (value == null || value.isBlank()) {
            throw new SnapshotFailure(SnapshotFailure.Reason.INVALID_REQUEST, "restore needs the " + what);
        }
    }
}
