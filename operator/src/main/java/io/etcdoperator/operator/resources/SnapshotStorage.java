package io.etcdoperator.operator.resources;

import io.etcdoperator.api.v1alpha2.PvcLocation;
import io.etcdoperator.api.v1alpha2.S3Location;
import io.etcdoperator.api.v1alpha2.SnapshotLocation;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import java.util.ArrayList;
import java.util.List;

/**
 * How the agent reaches a {@link SnapshotLocation}: its store flags, and the volumes behind them. S3 credentials are
 * the mounted Secret (files AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY), never values on the command line.
 *
 * @param path the S3 key (a prefix for save/delete, the exact key for restore) or the PVC sub-path; never null
 */
public record SnapshotStorage(List<String> args, String path, List<Volume> volumes, List<VolumeMount> mounts) {

    public static final String S3_CREDENTIALS_MOUNT = "/etc/etcd-snapshot/s3";

    /**
     * @param volumePrefix names this location's volumes ({@code <prefix>-s3-credentials}, {@code <prefix>-pvc})
     * @param pvcMount where a PVC location is mounted
     * @param readOnly mount the PVC read-only (restore never writes to its source)
     */
    public static SnapshotStorage of(
            SnapshotLocation location, String volumePrefix, String pvcMount, boolean readOnly) {
        if (location == null || (location.getS3() == null) == (location.getPvc() == null)) {
            throw new IllegalArgumentException("a snapshot location needs exactly one of s3 or pvc");
        }
        return location.getS3() != null
                ? s3(location.getS3(), volumePrefix)
                : pvc(location.getPvc(), volumePrefix, pvcMount, readOnly);
    }

    private static SnapshotStorage s3(S3Location s3, String volumePrefix) {
        List<String> args = new ArrayList<>();
        args.add("--s3-endpoint=" + s3.getEndpoint());
        args.add("--s3-bucket=" + s3.getBucket());
        if (s3.getRegion() != null && !s3.getRegion().isBlank()) {
            args.add("--s3-region=" + s3.getRegion());
        }
        if (Boolean.TRUE.equals(s3.getForcePathStyle())) {
            args.add("--s3-force-path-style");
        }
        if (s3.getServerSideEncryption() != null
                && !s3.getServerSideEncryption().isBlank()) {
            args.add("--s3-sse=" + s3.getServerSideEncryption());
        }
        if (s3.getKmsKeyId() != null && !s3.getKmsKeyId().isBlank()) {
            args.add("--s3-sse-kms-key-id=" + s3.getKmsKeyId());
        }
        args.add("--s3-credentials-dir=" + S3_CREDENTIALS_MOUNT);
        String volume = volumePrefix + "-s3-credentials";
        String secret = s3.getCredentialsSecretRef() == null
                ? null
                : s3.getCredentialsSecretRef().getName();
        if (secret == null || secret.isBlank()) {
            throw new IllegalArgumentException("s3.credentialsSecretRef.name is required");
        }
        return new SnapshotStorage(
                List.copyOf(args),
                nullToEmpty(s3.getKey()),
                List.of(new VolumeBuilder()
                        .withName(volume)
                        .withNewSecret()
                        .withSecretName(secret)
                        .withDefaultMode(0440)
                        .endSecret()
                        .build()),
                List.of(new VolumeMountBuilder()
                        .withName(volume)
                        .withMountPath(S3_CREDENTIALS_MOUNT)
                        .withReadOnly(true)
                        .build()));
    }

    private static SnapshotStorage pvc(PvcLocation pvc, String volumePrefix, String mount, boolean readOnly) {
        String volume = volumePrefix + "-pvc";
        return new SnapshotStorage(
                List.of("--dir=" + mount),
                nullToEmpty(pvc.getSubPath()),
                List.of(new VolumeBuilder()
                        .withName(volume)
                        .withNewPersistentVolumeClaim()
                        .withClaimName(pvc.getClaimName())
                        .withReadOnly(readOnly ? Boolean.TRUE : null)
                        .endPersistentVolumeClaim()
                        .build()),
                List.of(new VolumeMountBuilder()
                        .withName(volume)
                        .withMountPath(mount)
                        .withReadOnly(readOnly ? Boolean.TRUE : null)
                        .build()));
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }
}
