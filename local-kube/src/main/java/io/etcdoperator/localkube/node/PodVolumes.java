package io.etcdoperator.localkube.node;

import io.etcdoperator.localkube.network.HostCommand;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.DownwardAPIVolumeFile;
import io.fabric8.kubernetes.api.model.KeyToPath;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.ServiceAccountTokenProjection;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeProjection;
import io.fabric8.kubernetes.api.model.authentication.TokenRequest;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A Pod's volumes as host paths: PVCs resolve to their PersistentVolume's directory, emptyDirs are directories under
 * the Pod's dir ({@code medium: Memory} mounts a tmpfs there), Secrets, ConfigMaps, downward API and projected
 * volumes are written as files once, when the Pod starts (later changes are not synced).
 */
final class PodVolumes implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(PodVolumes.class.getName());

    private final KubernetesClient client;
    private final Pod pod;
    private final Path dir;
    private final ContainerEnvironment downward;
    private final Map<String, Path> paths = new LinkedHashMap<>();
    private final List<Path> tmpfs = new ArrayList<>();

    PodVolumes(KubernetesClient client, Pod pod, Path podDir, ContainerEnvironment downward) {
        this.client = client;
        this.pod = pod;
        this.dir = podDir.resolve("volumes");
        this.downward = downward;
    }

    /** Materialises every volume; throws {@link VolumeNotReady} (and may be called again) if one cannot be yet. */
    Map<String, Path> prepare() {
        List<Volume> volumes = Objects.requireNonNullElse(pod.getSpec().getVolumes(), List.of());
        for (Volume volume : volumes) {
            if (!paths.containsKey(volume.getName())) {
                paths.put(volume.getName(), materialise(volume));
            }
        }
        return Map.copyOf(paths);
    }

    Map<String, Path> paths() {
        return Map.copyOf(paths);
    }

    /**
     * Rewrites the downwardAPI volumes from the Pod's latest labels and annotations, as a kubelet does on its next
     * sync; each file is replaced atomically, so a reader sees the old content or the new, never half of it.
     */
    void refreshDownward(ContainerEnvironment latest) {
        for (Volume volume : Objects.requireNonNullElse(pod.getSpec().getVolumes(), List.<Volume>of())) {
            Path target = paths.get(volume.getName());
            if (target == null || volume.getDownwardAPI() == null) {
                continue;
            }
            for (DownwardAPIVolumeFile item : volume.getDownwardAPI().getItems()) {
                String value = item.getFieldRef() != null
                        ? latest.field(item.getFieldRef().getFieldPath())
                        : "";
                Integer mode = item.getMode() != null
                        ? item.getMode()
                        : volume.getDownwardAPI().getDefaultMode();
                replaceFile(target.resolve(item.getPath()), value.getBytes(StandardCharsets.UTF_8), mode);
            }
        }
    }

    private static void replaceFile(Path file, byte[] content, Integer mode) {
        Path next = file.resolveSibling("." + file.getFileName() + ".next");
        try {
            writeFile(next, content, mode);
            Files.move(next, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot refresh " + file, e);
        }
    }

    private Path materialise(Volume volume) {
        try {
            if (volume.getPersistentVolumeClaim() != null) {
                return claimDirectory(volume.getPersistentVolumeClaim().getClaimName());
            }
            if (volume.getHostPath() != null) {
                return Path.of(volume.getHostPath().getPath());
            }
            Path target = dir.resolve(volume.getName());
            Files.createDirectories(target);
            if (volume.getEmptyDir() != null) {
                if ("Memory".equals(volume.getEmptyDir().getMedium())) {
                    mountTmpfs(target, volume.getEmptyDir().getSizeLimit());
                }
            } else if (volume.getSecret() != null) {
                var source = volume.getSecret();
                writeKeys(
                        target,
                        secretBytes(source.getSecretName(), source.getOptional()),
                        source.getItems(),
                        source.getDefaultMode());
            } else if (volume.getConfigMap() != null) {
                var source = volume.getConfigMap();
                writeKeys(
                        target,
                        configMapBytes(source.getName(), source.getOptional()),
                        source.getItems(),
                        source.getDefaultMode());
            } else if (volume.getDownwardAPI() != null) {
                writeDownward(
                        target,
                        volume.getDownwardAPI().getItems(),
                        volume.getDownwardAPI().getDefaultMode());
            } else if (volume.getProjected() != null) {
                for (VolumeProjection source : volume.getProjected().getSources()) {
                    project(target, source, volume.getProjected().getDefaultMode());
                }
            } else {
                LOG.log(
                        Level.WARNING,
                        "volume {0} of pod {1} has an unsupported type; it is an empty directory",
                        volume.getName(),
                        pod.getMetadata().getName());
            }
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare volume " + volume.getName(), e);
        }
    }

    private Path claimDirectory(String claimName) {
        PersistentVolumeClaim claim = client.persistentVolumeClaims()
                .inNamespace(pod.getMetadata().getNamespace())
                .withName(claimName)
                .get();
        if (claim == null) {
            throw new VolumeNotReady("persistentvolumeclaim \"" + claimName + "\" not found");
        }
        String volumeName = claim.getSpec().getVolumeName();
        if (volumeName == null
                || claim.getStatus() == null
                || !"Bound".equals(claim.getStatus().getPhase())) {
            throw new VolumeNotReady("persistentvolumeclaim \"" + claimName + "\" is not bound");
        }
        PersistentVolume volume =
                client.persistentVolumes().withName(volumeName).get();
        if (volume == null) {
            throw new VolumeNotReady("persistentvolume \"" + volumeName + "\" not found");
        }
        if (volume.getSpec().getHostPath() != null) {
            return Path.of(volume.getSpec().getHostPath().getPath());
        }
        if (volume.getSpec().getLocal() != null) {
            return Path.of(volume.getSpec().getLocal().getPath());
        }
        throw new VolumeNotReady("persistentvolume \"" + volumeName + "\" is not a local directory");
    }

    private void mountTmpfs(Path target, Quantity sizeLimit) {
        String options = "mode=0777"
                + (sizeLimit == null
                        ? ""
                        : ",size=" + Quantity.getAmountInBytes(sizeLimit).toBigInteger());
        HostCommand.run("mount", "-t", "tmpfs", "-o", options, "lk-emptydir", target.toString());
        tmpfs.add(target);
    }

    private void project(Path target, VolumeProjection source, Integer mode) throws IOException {
        if (source.getSecret() != null) {
            writeKeys(
                    target,
                    secretBytes(source.getSecret().getName(), source.getSecret().getOptional()),
                    source.getSecret().getItems(),
                    mode);
        } else if (source.getConfigMap() != null) {
            writeKeys(
                    target,
                    configMapBytes(
                            source.getConfigMap().getName(),
                            source.getConfigMap().getOptional()),
                    source.getConfigMap().getItems(),
                    mode);
        } else if (source.getDownwardAPI() != null) {
            writeDownward(target, source.getDownwardAPI().getItems(), mode);
        } else if (source.getServiceAccountToken() != null) {
            writeFile(
                    target.resolve(source.getServiceAccountToken().getPath()),
                    token(source.getServiceAccountToken()).getBytes(StandardCharsets.UTF_8),
                    mode);
        }
    }

    private String token(ServiceAccountTokenProjection projection) {
        String account = Objects.requireNonNullElse(pod.getSpec().getServiceAccountName(), "default");
        TokenRequest request = new TokenRequestBuilder()
                .withNewSpec()
                .withAudiences(projection.getAudience() == null ? List.of() : List.of(projection.getAudience()))
                .withExpirationSeconds(projection.getExpirationSeconds())
                .withNewBoundObjectRef()
                .withApiVersion("v1")
                .withKind("Pod")
                .withName(pod.getMetadata().getName())
                .withUid(pod.getMetadata().getUid())
                .endBoundObjectRef()
                .endSpec()
                .build();
        try {
            return client.serviceAccounts()
                    .inNamespace(pod.getMetadata().getNamespace())
                    .withName(account)
                    .tokenRequest(request)
                    .getStatus()
                    .getToken();
        } catch (RuntimeException e) {
            throw new VolumeNotReady("cannot request a token for service account " + account + ": " + e.getMessage());
        }
    }

    private void writeKeys(Path target, Map<String, byte[]> values, List<KeyToPath> items, Integer defaultMode)
            throws IOException {
        if (items == null || items.isEmpty()) {
            for (var entry : values.entrySet()) {
                writeFile(target.resolve(entry.getKey()), entry.getValue(), defaultMode);
            }
            return;
        }
        for (KeyToPath item : items) {
            byte[] value = values.get(item.getKey());
            if (value == null) {
                throw new VolumeNotReady("couldn't find key " + item.getKey());
            }
            writeFile(target.resolve(item.getPath()), value, item.getMode() != null ? item.getMode() : defaultMode);
        }
    }

    private void writeDownward(Path target, List<DownwardAPIVolumeFile> items, Integer defaultMode) throws IOException {
        for (DownwardAPIVolumeFile item : items) {
            String value = item.getFieldRef() != null
                    ? downward.field(item.getFieldRef().getFieldPath())
                    : "";
            writeFile(
                    target.resolve(item.getPath()),
                    value.getBytes(StandardCharsets.UTF_8),
                    item.getMode() != null ? item.getMode() : defaultMode);
        }
    }

    private static void writeFile(Path file, byte[] content, Integer mode) throws IOException {
        Files.createDirectories(file.getParent());
        Files.write(file, content);
        Files.setPosixFilePermissions(file, permissions(mode == null ? 0644 : mode));
    }

    static Set<PosixFilePermission> permissions(int mode) {
        Set<PosixFilePermission> permissions = EnumSet.noneOf(PosixFilePermission.class);
        PosixFilePermission[] order = {
            PosixFilePermission.OTHERS_EXECUTE,
            PosixFilePermission.OTHERS_WRITE,
            PosixFilePermission.OTHERS_READ,
            PosixFilePermission.GROUP_EXECUTE,
            PosixFilePermission.GROUP_WRITE,
            PosixFilePermission.GROUP_READ,
            PosixFilePermission.OWNER_EXECUTE,
            PosixFilePermission.OWNER_WRITE,
            PosixFilePermission.OWNER_READ
        };
        for (int bit = 0; bit < order.length; bit++) {
            if ((mode & (1 << bit)) != 0) {
                permissions.add(order[bit]);
            }
        }
        return permissions;
    }

    private Map<String, byte[]> secretBytes(String name, Boolean optional) {
        Secret secret = client.secrets()
                .inNamespace(pod.getMetadata().getNamespace())
                .withName(name)
                .get();
        Map<String, byte[]> values = new LinkedHashMap<>();
        if (secret == null) {
            if (!Boolean.TRUE.equals(optional)) {
                throw new VolumeNotReady("secret \"" + name + "\" not found");
            }
            return values;
        }
        if (secret.getData() != null) {
            secret.getData()
                    .forEach((key, value) -> values.put(key, Base64.getDecoder().decode(value)));
        }
        return values;
    }

    private Map<String, byte[]> configMapBytes(String name, Boolean optional) {
        ConfigMap configMap = client.configMaps()
                .inNamespace(pod.getMetadata().getNamespace())
                .withName(name)
                .get();
        Map<String, byte[]> values = new LinkedHashMap<>();
        if (configMap == null) {
            if (!Boolean.TRUE.equals(optional)) {
                throw new VolumeNotReady("configmap \"" + name + "\" not found");
            }
            return values;
        }
        if (configMap.getData() != null) {
            configMap.getData().forEach((key, value) -> values.put(key, value.getBytes(StandardCharsets.UTF_8)));
        }
        if (configMap.getBinaryData() != null) {
            configMap
                    .getBinaryData()
                    .forEach((key, value) -> values.put(key, Base64.getDecoder().decode(value)));
        }
        return values;
    }

    /** Deletes what a volume holds, keeping the volume itself (a fault: the disk was lost). */
    void wipe(String volumeName) {
        Path path = paths.get(volumeName);
        if (path == null) {
            throw new IllegalArgumentException("pod " + pod.getMetadata().getName() + " has no volume " + volumeName);
        }
        try (Stream<Path> files = Files.walk(path)) {
            for (Path file : files.sorted(Comparator.reverseOrder())
                    .filter(file -> !file.equals(path))
                    .toList()) {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot wipe " + path, e);
        }
    }

    /** Unmounts tmpfs volumes and removes the Pod's own volume dirs; PVC directories stay. */
    @Override
    public void close() {
        tmpfs.forEach(target -> HostCommand.attempt(List.of("umount", "-l", target.toString())));
        tmpfs.clear();
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            LOG.log(Level.WARNING, "cannot remove " + dir, e);
        }
    }
}
