package io.etcdoperator.operator.snapshot;

import io.etcdoperator.api.v1alpha2.EtcdSnapshot;
import io.etcdoperator.api.v1alpha2.EtcdSnapshotSpec;
import io.etcdoperator.api.v1alpha2.PvcLocation;
import io.etcdoperator.api.v1alpha2.S3Location;
import io.etcdoperator.api.v1alpha2.SecretKeyReference;
import io.etcdoperator.api.v1alpha2.SnapshotEncryption;
import io.etcdoperator.api.v1alpha2.SnapshotLocation;
import io.fabric8.kubernetes.api.model.LocalObjectReference;

/** EtcdSnapshots and locations for the snapshot tests. */
final class SnapshotFixtures {

    private SnapshotFixtures() {}

    static SnapshotLocation s3(String key) {
        S3Location s3 = new S3Location();
        s3.setEndpoint("https://s3.example.test");
        s3.setBucket("etcd-backups");
        s3.setKey(key);
        s3.setRegion("eu-west-1");
        s3.setForcePathStyle(true);
        s3.setCredentialsSecretRef(new LocalObjectReference("s3-credentials"));
        SnapshotLocation location = new SnapshotLocation();
        location.setS3(s3);
        return location;
    }

    public static SnapshotEncryption encryption(String secret, String key) {
        var encryption = new SnapshotEncryption();
        encryption.setKeySecretRef(new SecretKeyReference(secret, key));
        return encryption;
    }

    static SnapshotLocation pvc(String claim, String subPath) {
        PvcLocation pvc = new PvcLocation();
        pvc.setClaimName(claim);
        pvc.setSubPath(subPath);
        SnapshotLocation location = new SnapshotLocation();
        location.setPvc(pvc);
        return location;
    }

    static EtcdSnapshot snapshot(
            String namespace, String name, String uid, String cluster, SnapshotLocation destination) {
        EtcdSnapshot snapshot = new EtcdSnapshot();
        snapshot.getMetadata().setName(name);
        snapshot.getMetadata().setNamespace(namespace);
        snapshot.getMetadata().setUid(uid);
        EtcdSnapshotSpec spec = new EtcdSnapshotSpec();
        spec.setClusterRef(new LocalObjectReference(cluster));
        spec.setDestination(destination);
        snapshot.setSpec(spec);
        return snapshot;
    }
}
