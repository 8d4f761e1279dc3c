package io.etcdoperator.localkube.node;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.etcdoperator.localkube.network.HostCommand;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An unpacked container image that runc runs: its root filesystem and the config a container runtime takes from
 * the image (entrypoint, cmd, env, user, working dir). Either unpacked from an OCI layout with umoci, or assembled
 * from binaries on this machine plus the shared libraries they link.
 */
public record ContainerRootfs(
        Path dir, List<String> entrypoint, List<String> cmd, List<String> env, long uid, long gid, String workingDir) {

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * A root filesystem at {@code dir} holding {@code files} (path in the image to a host file), the libraries they
     * link (ldd), /etc/passwd and /etc/group with root and nonroot (65532), and a 1777 /tmp; runs as root.
     */
    public static ContainerRootfs assemble(Path dir, Map<String, Path> files, List<String> entrypoint) {
        try {
            Path root = dir.resolve("rootfs");
            Set<String> libraries = new LinkedHashSet<>();
            for (Map.Entry<String, Path> file : files.entrySet()) {
                Path target = inside(root, file.getKey());
                Files.createDirectories(target.getParent());
                Files.copy(file.getValue(), target, StandardCopyOption.REPLACE_EXISTING);
                Files.setPosixFilePermissions(target, PosixFilePermissions.fromString("rwxr-xr-x"));
                libraries.addAll(linked(file.getValue()));
            }
            for (String library : libraries) {
                Path target = inside(root, library);
                Files.createDirectories(target.getParent());
                Files.copy(Path.of(library), target, StandardCopyOption.REPLACE_EXISTING);
            }
            Files.createDirectories(root.resolve("etc"));
            Files.writeString(
                    root.resolve("etc/passwd"),
                    "root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n");
            Files.writeString(root.resolve("etc/group"), "root:x:0:\nnonroot:x:65532:\n");
            Files.writeString(root.resolve("etc/nsswitch.conf"), "hosts: files dns\n");
            Path tmp = Files.createDirectories(root.resolve("tmp"));
            Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxrwxrwx"));
            HostCommand.run("chmod", "1777", tmp.toString());
            return new ContainerRootfs(
                    root, List.copyOf(entrypoint), List.of(), List.of("PATH=/usr/local/bin:/usr/bin:/bin"), 0, 0, "/");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot assemble an image in " + dir, e);
        }
    }

    /**
     * The image {@code tag} of the OCI layout {@code layout}, unpacked with umoci into {@code dir} (kept while the
     * manifest digest is the same).
     */
    public static ContainerRootfs unpack(Path layout, String tag, Path dir) {
        try {
            JsonNode index = JSON.readTree(layout.resolve("index.json").toFile());
            JsonNode descriptor = null;
            for (JsonNode manifest : index.path("manifests")) {
                if (tag.equals(manifest.path("annotations")
                        .path("org.opencontainers.image.ref.name")
                        .asText())) {
                    descriptor = manifest;
                }
            }
            if (descriptor == null) {
                throw new IllegalArgumentException("no tag " + tag + " in OCI layout " + layout);
            }
            String digest = descriptor.path("digest").asText();
            JsonNode manifest = JSON.readTree(blob(layout, digest).toFile());
            JsonNode config = JSON.readTree(
                            blob(layout, manifest.path("config").path("digest").asText())
                                    .toFile())
                    .path("config");
            Path bundle = dir.resolve("bundle");
            Path stamp = dir.resolve("digest");
            if (!Files.exists(stamp) || !Files.readString(stamp).equals(digest)) {
                HostCommand.run("rm", "-rf", bundle.toString());
                Files.createDirectories(dir);
                HostCommand.run("umoci", "unpack", "--image", layout + ":" + tag, bundle.toString());
                Files.writeString(stamp, digest);
            }
            String[] user = config.path("User").asText("0:0").split(":");
            return new ContainerRootfs(
                    bundle.resolve("rootfs"),
                    strings(config.path("Entrypoint")),
                    strings(config.path("Cmd")),
                    strings(config.path("Env")),
                    parse(user[0]),
                    user.length > 1 ? parse(user[1]) : 0,
                    config.path("WorkingDir").asText("/"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot unpack " + layout + ":" + tag, e);
        }
    }

    private static long parse(String id) {
        return id.isEmpty() ? 0 : Long.parseLong(id);
    }

    private static Path blob(Path layout, String digest) {
        String[] parts = digest.split(":", 2);
        return layout.resolve("blobs").resolve(parts[0]).resolve(parts[1]);
    }

    private static List<String> strings(JsonNode array) {
        List<String> values = new ArrayList<>();
        array.forEach(value -> values.add(value.asText()));
        return List.copyOf(values);
    }

    private static Path inside(Path root, String path) {
        return root.resolve(path.startsWith("/") ? path.substring(1) : path);
    }

    /** The absolute paths of the shared libraries (and the loader) a binary links; none when static. */
    static List<String> linked(Path binary) {
        HostCommand.Result result = HostCommand.attempt(List.of("ldd", binary.toString()));
        List<String> libraries = new ArrayList<>();
        for (String line : result.output().split("\n")) {
            String trimmed = line.trim();
            int arrow = trimmed.indexOf("=> /");
            if (arrow >= 0) {
                libraries.add(trimmed.substring(arrow + 3).split(" ")[0]);
            } else if (trimmed.startsWith("/")) {
                libraries.add(trimmed.split(" ")[0]);
            }
        }
        return libraries;
    }
}
