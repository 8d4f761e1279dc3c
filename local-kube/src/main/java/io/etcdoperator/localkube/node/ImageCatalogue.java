package io.etcdoperator.localkube.node;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Maps container images to programs on this machine, since there is no container runtime. An image is either a
 * directory of binaries (a command is resolved by its basename there, then on the host) or a fixed command line
 * (such as {@code java -jar operator.jar}) that the container's args are appended to.
 */
public final class ImageCatalogue {

    private static final List<String> HOST_PATH =
            List.of("/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin");

    private final Map<String, Image> images;
    private final ImageRegistries registries;

    private ImageCatalogue(Map<String, Image> images, ImageRegistries registries) {
        this.images = Map.copyOf(images);
        this.registries = registries;
    }

    /**
     * What an image provides: binaries in {@code directory}, an entrypoint, and a default command ({@code cmd}) that
     * a container's args replace, as with container images.
     */
    public record Image(
            Optional<Path> directory, List<String> entrypoint, List<String> cmd, Optional<ContainerRootfs> rootfs) {

        Image(Optional<Path> directory, List<String> entrypoint, List<String> cmd) {
            this(directory, entrypoint, cmd, Optional.empty());
        }

        /** A real image, run by runc from its root filesystem, with the entrypoint and cmd its config gives. */
        static Image of(ContainerRootfs rootfs) {
            return new Image(Optional.empty(), rootfs.entrypoint(), rootfs.cmd(), Optional.of(rootfs));
        }
    }

    /**
     * The etcd images (as {@link #withEtcdImages()}) as real images that runc runs: root filesystems assembled under
     * {@code dir} from the same binaries (etcd, etcdctl, and etcdutl where the version has it, in /usr/local/bin).
     */
    public static Builder withContainerEtcdImages(Path dir) {
        Builder builder = new Builder();
        Map<String, Path> versions = new LinkedHashMap<>();
        versions.put("v3.4.23", binaryDir("etcd34.bin", "ETCD34_BIN", Path.of("/usr/bin")));
        versions.put(
                "v3.5.16",
                binaryDir(
                        "etcd35.bin",
                        "ETCD35_BIN",
                        Path.of(System.getProperty("user.home"), ".cache", "etcd-operator", "etcd-3.5.16")));
        versions.put(
                "v3.5.30",
                binaryDir(
                        "etcd3530.bin",
                        "ETCD3530_BIN",
                        Path.of(System.getProperty("user.home"), ".cache", "etcd-operator", "etcd-3.5.30")));
        versions.forEach((tag, binaries) -> {
            Map<String, Path> files = new LinkedHashMap<>();
            for (String tool : List.of("etcd", "etcdctl", "etcdutl")) {
                if (Files.isExecutable(binaries.resolve(tool))) {
                    files.put("/usr/local/bin/" + tool, binaries.resolve(tool));
                }
            }
            ContainerRootfs rootfs =
                    ContainerRootfs.assemble(dir.resolve("etcd-" + tag), files, List.of("/usr/local/bin/etcd"));
            for (String registry : List.of("quay.io/coreos/etcd", "gcr.io/etcd-development/etcd")) {
                builder.rootfs(registry + ":" + tag, rootfs);
            }
        });
        return builder;
    }

    /**
     * The etcd images of the project, under both registries (quay.io/coreos/etcd, gcr.io/etcd-development/etcd):
     * v3.4.23 from ETCD34_BIN, v3.5.16 from ETCD35_BIN, and v3.5.30 (the target of rolling upgrades) from
     * ETCD3530_BIN; system properties etcd34.bin, etcd35.bin and etcd3530.bin win over the variables, and
     * hack/etcd-binaries.sh's directories are the fallbacks.
     */
    public static Builder withEtcdImages() {
        Builder builder = new Builder();
        Path etcd34 = binaryDir("etcd34.bin", "ETCD34_BIN", Path.of("/usr/bin"));
        Path etcd35 = binaryDir(
                "etcd35.bin",
                "ETCD35_BIN",
                Path.of(System.getProperty("user.home"), ".cache", "etcd-operator", "etcd-3.5.16"));
        Path etcd3530 = binaryDir(
                "etcd3530.bin",
                "ETCD3530_BIN",
                Path.of(System.getProperty("user.home"), ".cache", "etcd-operator", "etcd-3.5.30"));
        for (String registry : List.of("quay.io/coreos/etcd", "gcr.io/etcd-development/etcd")) {
            builder.directory(registry + ":v3.4.23", etcd34, "/usr/local/bin/etcd");
            builder.directory(registry + ":v3.5.16", etcd35, "/usr/local/bin/etcd");
            builder.directory(registry + ":v3.5.30", etcd3530, "/usr/local/bin/etcd");
        }
        return builder;
    }

    /**
     * The restore tools the operator image ships ({@code v3.4/etcdctl}, {@code v3.5/etcdutl} and {@code etcdctl}) as
     * links under {@code dir} to the binaries behind the etcd images; pass {@code dir} as {@code --etcd-tools-dir}.
     */
    public static Path etcdTools(Path dir) throws IOException {
        Path etcd34 = binaryDir("etcd34.bin", "ETCD34_BIN", Path.of("/usr/bin"));
        Path etcd35 = binaryDir(
                "etcd35.bin",
                "ETCD35_BIN",
                Path.of(System.getProperty("user.home"), ".cache", "etcd-operator", "etcd-3.5.16"));
        link(dir.resolve("v3.4"), etcd34, "etcdctl");
        link(dir.resolve("v3.5"), etcd35, "etcdutl");
        link(dir.resolve("v3.5"), etcd35, "etcdctl");
        return dir;
    }

    private static void link(Path versionDir, Path binaries, String tool) throws IOException {
        Files.createDirectories(versionDir);
        Path target = binaries.resolve(tool).toAbsolutePath();
        Path link = versionDir.resolve(tool);
        Files.deleteIfExists(link);
        Files.createSymbolicLink(link, target);
    }

    static Path binaryDir(String property, String env, Path fallback) {
        for (String value : new String[] {System.getProperty(property), System.getenv(env)}) {
            if (value != null && !value.isBlank() && !value.startsWith("${")) {
                return Path.of(value);
            }
        }
        return fallback;
    }

    public Optional<Image> image(String name) {
        return Optional.ofNullable(images.get(name));
    }

    /** A container's image: from the catalogue, else pulled from its registry when the node pulls from that one. */
    public ImagePull pull(String name) {
        Image image = images.get(name);
        return image != null ? ImagePull.found(image, "local://" + name) : registries.pull(name);
    }

    /**
     * The host command line for a container: its command (or the image's entrypoint) with the program resolved to a
     * host path, then its args. Empty when the program cannot be found.
     */
    public Optional<List<String>> commandLine(Image image, List<String> command, List<String> args) {
        return commandLine(image, command, args, List.of());
    }

    /**
     * As above, for a container with volumes mounted at {@code volumeTargets}: a program inside one of them (such as
     * etcd-guard, copied there by an init container) is run from there, and, in an image of host binaries, the image
     * paths it is given to exec (/usr/local/bin/etcd) become the host binaries behind them.
     */
    public Optional<List<String>> commandLine(
            Image image, List<String> command, List<String> args, List<Path> volumeTargets) {
        List<String> line = new ArrayList<>(command.isEmpty() ? image.entrypoint() : command);
        line.addAll(!args.isEmpty() || !command.isEmpty() ? args : image.cmd());
        if (!line.isEmpty()
                && line.getFirst().startsWith("/")
                && volumeTargets.stream().anyMatch(Path.of(line.getFirst())::startsWith)) {
            if (image.directory().isPresent()) {
                line.replaceAll(word -> inImage(image.directory().get(), word));
            }
            return Optional.of(line);
        }
        if (image.rootfs().isPresent()) {
            return containerCommandLine(image.rootfs().get(), command, args);
        }
        if (line.isEmpty()) {
            return Optional.empty();
        }
        if (command.isEmpty()
                && image.directory().isEmpty()
                && !image.entrypoint().isEmpty()) {
            return Optional.of(line); // a fixed command line such as java -jar
        }
        Optional<Path> program = resolve(image, line.getFirst());
        program.ifPresent(path -> line.set(0, path.toString()));
        return program.map(path -> line);
    }

    /** As a container runtime: entrypoint/cmd from the image unless the container sets them; the program must exist. */
    private static Optional<List<String>> containerCommandLine(
            ContainerRootfs rootfs, List<String> command, List<String> args) {
        List<String> line = new ArrayList<>(command.isEmpty() ? rootfs.entrypoint() : command);
        line.addAll(!args.isEmpty() || !command.isEmpty() ? args : rootfs.cmd());
        if (line.isEmpty()) {
            return Optional.empty();
        }
        String program = line.getFirst();
        List<String> candidates = program.contains("/")
                ? List.of(program)
                : path(rootfs).stream().map(dir -> dir + "/" + program).toList();
        Optional<String> found = candidates.stream()
                .filter(candidate -> Files.isExecutable(rootfs.dir().resolve(candidate.replaceFirst("^/+", ""))))
                .findFirst();
        found.ifPresent(path -> line.set(0, path));
        return found.map(path -> line);
    }

    private static List<String> path(ContainerRootfs rootfs) {
        return rootfs.env().stream()
                .filter(variable -> variable.startsWith("PATH="))
                .findFirst()
                .map(variable -> List.of(variable.substring(5).split(":")))
                .orElse(HOST_PATH);
    }

    private static String inImage(Path directory, String word) {
        if (!word.startsWith("/usr/local/bin/")) {
            return word;
        }
        Path binary = directory.resolve(Path.of(word).getFileName().toString());
        return Files.isExecutable(binary) ? binary.toString() : word;
    }

    private static Optional<Path> resolve(Image image, String program) {
        String basename = Path.of(program).getFileName().toString();
        if (image.directory().isPresent()) {
            Path inImage = image.directory().get().resolve(basename);
            if (Files.isExecutable(inImage)) {
                return Optional.of(inImage);
            }
        }
        if (program.startsWith("/") && Files.isExecutable(Path.of(program))) {
            return Optional.of(Path.of(program));
        }
        return HOST_PATH.stream()
                .map(dir -> Path.of(dir, basename))
                .filter(Files::isExecutable)
                .findFirst();
    }

    public static final class Builder {

        private final Map<String, Image> images = new LinkedHashMap<>();
        private final Map<String, String> registries = new LinkedHashMap<>();
        private Path pullDir;

        private Builder() {}

        /**
         * Images named under registry {@code host} that the catalogue lacks are pulled over plain HTTP from
         * {@code endpoint} (host:port; the host itself for a loopback registry, another one to mirror a public
         * registry) into {@code dir}.
         */
        public Builder registry(String host, String endpoint, Path dir) {
            registries.put(host, endpoint);
            pullDir = dir;
            return this;
        }

        /** An image whose binaries live in {@code directory}; {@code entrypoint} runs when a container has no command. */
        public Builder directory(String image, Path directory, String... entrypoint) {
            images.put(image, new Image(Optional.of(directory), List.of(entrypoint), List.of()));
            return this;
        }

        /** A real image, run by runc from its root filesystem with the Pod's security context enforced. */
        public Builder rootfs(String image, ContainerRootfs rootfs) {
            images.put(image, Image.of(rootfs));
            return this;
        }

        /** The image {@code tag} of an OCI layout (hack/image.sh's), unpacked under {@code dir}, run by runc. */
        public Builder oci(String image, Path layout, String tag, Path dir) {
            return rootfs(image, ContainerRootfs.unpack(layout, tag, dir));
        }

        /** An image that is one fixed command line; a container's args are appended to it. */
        public Builder command(String image, List<String> commandLine) {
            images.put(image, new Image(Optional.empty(), List.copyOf(commandLine), List.of()));
            return this;
        }

        /**
         * The operator image: {@code java -jar <jar>} with a JDK >= 21; its other programs (etcd-guard) are looked
         * up next to the jar, where the operator module's build leaves them.
         */
        public Builder operator(String image, Path jar) {
            Path absolute = jar.toAbsolutePath();
            images.put(
                    image,
                    new Image(
                            Optional.of(absolute.getParent()),
                            List.of(Jdk.java().toString(), "-jar", absolute.toString()),
                            List.of()));
            return this;
        }

        /** An image of host programs only, such as {@code busybox}: commands resolve on the host; cmd is sh. */
        public Builder host(String image) {
            images.put(image, new Image(Optional.empty(), List.of(), List.of("/bin/sh")));
            return this;
        }

        public ImageCatalogue build() {
            return new ImageCatalogue(
                    images, registries.isEmpty() ? ImageRegistries.none() : new ImageRegistries(registries, pullDir));
        }
    }
}
