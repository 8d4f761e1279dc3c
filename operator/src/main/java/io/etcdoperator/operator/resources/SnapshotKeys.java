package io.etcdoperator.operator.resources;

import io.etcdoperator.api.v1alpha2.SecretKeyReference;
import io.etcdoperator.api.v1alpha2.SnapshotLocation;
import io.fabric8.kubernetes.api.model.KeyToPath;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import java.util.ArrayList;
import java.util.List;

/**
 * A location's encryption key Secret, mounted as files for the agent (like the S3 credentials): a key is never an
 * argument, and not an env value either, which would show in the Pod's environment and in crash dumps.
 */
public record SnapshotKeys(List<String> args, List<Volume> volumes, List<VolumeMount> mounts) {

    public static final String MOUNT = "/etc/etcd-snapshot/encryption";
    static final SnapshotKeys NONE = new SnapshotKeys(List.of(), List.of(), List.of());

    /** Save: only the named entry; its name is the key id the agent stores in the object. */
    public static SnapshotKeys forSave(SnapshotLocation location, String volumePrefix) {
        SecretKeyReference ref = reference(location);
        if (ref == null) {
            return NONE;
        }
        return of(
                ref,
                volumePrefix,
                List.of(new KeyToPath(ref.getKey(), null, ref.getKey())),
                List.of("--encryption-key-dir=" + MOUNT, "--encryption-key-id=" + ref.getKey()));
    }

    /** Restore: every entry, because the snapshot names the key id it needs (older keys stay after a rotation). */
    public static SnapshotKeys forRestore(SnapshotLocation location, String volumePrefix) {
        SecretKeyReference ref = reference(location);
        return ref == null ? NONE : of(ref, volumePrefix, null, List.of("--encryption-key-dir=" + MOUNT));
    }

    private static SecretKeyReference reference(SnapshotLocation location) {
        return location == null || location.getEncryption() == null
                ? null
                : location.getEncryption().getKeySecretRef();
    }

    private static SnapshotKeys of(
            SecretKeyReference ref, String volumePrefix, List<KeyToPath> items, List<String> args) {
        String volume = volumePrefix + "-encryption-keys";
        return new SnapshotKeys(
                args,
                List.of(new VolumeBuilder()
                        .withName(volume)
                        .withNewSecret()
                        .withSecretName(ref.getName())
                        .withItems(items)
                        .withDefaultMode(0440)
                        .endSecret()
                        .build()),
                List.of(new VolumeMountBuilder()
                        .withName(volume)
                        .withMountPath(MOUNT)
                        .withReadOnly(true)
                        .build()));
    }

    /** Appends this to a container's args and mounts and its Pod's volumes. */
    public void addTo(List<String> args, List<Volume> volumes, List<VolumeMount> mounts) {
        args.addAll(this.args);
        volumes.addAll(this.volumes);
        mounts.addAll(this.mounts);
    }

    static List<Volume> join(List<Volume> first, List<Volume> second) {
        List<Volume> all = new ArrayList<>(first);
        all.addAll(second);
        return all;
    }
}
