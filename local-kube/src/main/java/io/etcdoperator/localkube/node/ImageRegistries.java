package io.etcdoperator.localkube.node;

import io.etcdoperator.localkube.network.HostCommand;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The registries a node pulls from, as a container runtime's mirror configuration: images named under a registry
 * host are fetched over plain HTTP from its endpoint (a loopback registry such as Debian's docker-registry) with
 * skopeo into an OCI layout, then unpacked by umoci. One pull at a time, as the kubelet serializes them by default.
 */
public final class ImageRegistries {

    private static final Duration PULL_TIMEOUT = Duration.ofMinutes(2);

    private final Map<String, String> endpoints;
    private final Path dir;
    private final Map<String, ImagePull> pulled = new HashMap<>();

    ImageRegistries(Map<String, String> endpoints, Path dir) {
        this.endpoints = Map.copyOf(endpoints);
        this.dir = dir;
    }

    static ImageRegistries none() {
        return new ImageRegistries(Map.of(), Path.of("."));
    }

    /** The image behind {@code reference}, pulled the first time; a failed pull is tried again on the next call. */
    synchronized ImagePull pull(String reference) {
        ImagePull known = pulled.get(reference);
        if (known != null) {
            return known;
        }
        Optional<String> endpoint = endpoint(reference);
        if (endpoint.isEmpty()) {
            return ImagePull.failed("image \"" + reference + "\" is not in the local image catalogue and its"
                    + " registry is not one this node pulls from");
        }
        try {
            ImagePull pull = fetch(reference, endpoint.get());
            pulled.put(reference, pull);
            return pull;
        } catch (IllegalStateException | UncheckedIOException e) {
            return ImagePull.failed("failed to pull image \"" + reference + "\": " + e.getMessage());
        }
    }

    private ImagePull fetch(String reference, String endpoint) {
        Path into = dir.resolve(reference.replaceAll("[^A-Za-z0-9.-]", "_"));
        Path layout = into.resolve("oci");
        Path digestFile = into.resolve("manifest-digest");
        try {
            Files.createDirectories(into);
            HostCommand.run(
                    List.of(
                            "skopeo",
                            "copy",
                            "--quiet",
                            "--src-tls-verify=false",
                            "--digestfile",
                            digestFile.toString(),
                            "docker://" + endpoint + reference.substring(reference.indexOf('/')),
                            "oci:" + layout + ":pulled"),
                    Map.of(),
                    PULL_TIMEOUT);
            ContainerRootfs rootfs = ContainerRootfs.unpack(layout, "pulled", into.resolve("unpacked"));
            String digest = Files.readString(digestFile).strip();
            return ImagePull.found(ImageCatalogue.Image.of(rootfs), repository(reference) + "@" + digest);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The endpoint of the registry {@code reference} names, if this node pulls from it. */
    Optional<String> endpoint(String reference) {
        int slash = reference.indexOf('/');
        return slash < 0 ? Optional.empty() : Optional.ofNullable(endpoints.get(reference.substring(0, slash)));
    }

    /** The reference without its tag or digest: {@code host/repo:tag} and {@code host/repo@sha256:…} give host/repo. */
    static String repository(String reference) {
        int at = reference.indexOf('@');
        if (at >= 0) {
            return reference.substring(0, at);
        }
        int colon = reference.lastIndexOf(':');
        return colon > reference.lastIndexOf('/') ? reference.substring(0, colon) : reference;
    }
}
