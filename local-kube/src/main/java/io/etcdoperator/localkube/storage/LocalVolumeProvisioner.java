package io.etcdoperator.localkube.storage;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.storage.StorageClass;
import io.fabric8.kubernetes.api.model.storage.StorageClassBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonDeletingOperation;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * A dynamic provisioner for a default StorageClass: each claim of that class gets a PersistentVolume backed by a
 * directory under the work dir, which kube-controller-manager's binder then binds. When a claim is deleted its
 * volume is Released; the provisioner then deletes the directory and the volume (reclaim policy Delete).
 */
public final class LocalVolumeProvisioner implements AutoCloseable {

    public static final String STORAGE_CLASS = "local-dir";
    public static final String PROVISIONER = "local-kube.etcdoperator.io/directory";
    private static final String PROVISIONED_BY = "pv.kubernetes.io/provisioned-by";
    private static final System.Logger LOG = System.getLogger(LocalVolumeProvisioner.class.getName());

    private final KubernetesClient client;
    private final Path volumesDir;
    private final SharedIndexInformer<PersistentVolumeClaim> claims;
    private final SharedIndexInformer<PersistentVolume> volumes;

    public LocalVolumeProvisioner(KubernetesClient client, Path volumesDir) {
        this.client = client;
        this.volumesDir = volumesDir.toAbsolutePath();
        createStorageClass();
        this.claims = client.persistentVolumeClaims().inAnyNamespace().inform(new Handler<>(this::provision), 30_000);
        this.volumes = client.persistentVolumes().inform(new Handler<>(this::reclaim), 30_000);
    }

    private void createStorageClass() {
        StorageClass storageClass = new StorageClassBuilder()
                .withNewMetadata()
                .withName(STORAGE_CLASS)
                .addToAnnotations("storageclass.kubernetes.io/is-default-class", "true")
                .endMetadata()
                .withProvisioner(PROVISIONER)
                .withReclaimPolicy("Delete")
                .withVolumeBindingMode("Immediate")
                .build();
        client.storage().v1().storageClasses().resource(storageClass).createOr(NonDeletingOperation::update);
    }

    /** The directory that backs a provisioned volume. */
    public Path directoryOf(String volumeName) {
        return volumesDir.resolve(volumeName);
    }

    private synchronized void provision(PersistentVolumeClaim claim) {
        if (claim.getMetadata().getDeletionTimestamp() != null
                || claim.getSpec().getVolumeName() != null
                || !ours(claim)) {
            return;
        }
        String name = "pvc-" + claim.getMetadata().getUid();
        if (volumes.getStore().getByKey(name) != null) {
            return;
        }
        Path dir = directoryOf(name);
        try {
            Files.createDirectories(dir);
            Quantity size = Optional.ofNullable(claim.getSpec().getResources().getRequests())
                    .map(requests -> requests.get("storage"))
                    .orElse(new Quantity("1Gi"));
            PersistentVolume volume = new PersistentVolumeBuilder()
                    .withNewMetadata()
                    .withName(name)
                    .addToAnnotations(PROVISIONED_BY, PROVISIONER)
                    .endMetadata()
                    .withNewSpec()
                    .withCapacity(Map.of("storage", size))
                    .withAccessModes(claim.getSpec().getAccessModes())
                    .withStorageClassName(STORAGE_CLASS)
                    .withPersistentVolumeReclaimPolicy("Delete")
                    .withVolumeMode(claim.getSpec().getVolumeMode())
                    .withNewHostPath()
                    .withPath(dir.toString())
                    .withType("DirectoryOrCreate")
                    .endHostPath()
                    .withNewClaimRef()
                    .withApiVersion("v1")
                    .withKind("PersistentVolumeClaim")
                    .withNamespace(claim.getMetadata().getNamespace())
                    .withName(claim.getMetadata().getName())
                    .withUid(claim.getMetadata().getUid())
                    .endClaimRef()
                    .endSpec()
                    .build();
            client.persistentVolumes().resource(volume).create();
            LOG.log(
                    Level.INFO,
                    "provisioned {0} for {1}/{2} in {3}",
                    name,
                    claim.getMetadata().getNamespace(),
                    claim.getMetadata().getName(),
                    dir);
        } catch (KubernetesClientException e) {
            if (e.getCode() != 409) {
                LOG.log(Level.WARNING, "cannot provision " + name, e);
            }
        } catch (IOException e) {
            LOG.log(Level.WARNING, "cannot create " + dir, e);
        }
    }

    private boolean ours(PersistentVolumeClaim claim) {
        String className = claim.getSpec().getStorageClassName();
        return STORAGE_CLASS.equals(className);
    }

    private void reclaim(PersistentVolume volume) {
        boolean ours = PROVISIONER.equals(
                volume.getMetadata().getAnnotations() == null
                        ? null
                        : volume.getMetadata().getAnnotations().get(PROVISIONED_BY));
        if (!ours
                || volume.getStatus() == null
                || !"Released".equals(volume.getStatus().getPhase())
                || !"Delete".equals(volume.getSpec().getPersistentVolumeReclaimPolicy())
                || volume.getMetadata().getDeletionTimestamp() != null) {
            return;
        }
        String name = volume.getMetadata().getName();
        deleteRecursively(directoryOf(name));
        client.persistentVolumes().withName(name).delete();
        LOG.log(Level.INFO, "deleted released volume {0} and its directory", name);
    }

    private static void deleteRecursively(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + dir, e);
        }
    }

    @Override
    public void close() {
        claims.close();
        volumes.close();
    }

    /** Calls {@code action} on adds and updates; deletions need no work. */
    private record Handler<T>(Consumer<T> action) implements ResourceEventHandler<T> {
        @Override
        public void onAdd(T obj) {
            run(obj);
        }

        @Override
        public void onUpdate(T oldObj, T newObj) {
            run(newObj);
        }

        @Override
        public void onDelete(T obj, boolean deletedFinalStateUnknown) {
            // nothing to undo
        }

        private void run(T obj) {
            try {
                action.accept(obj);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "volume provisioning step failed", e);
            }
        }
    }
}
