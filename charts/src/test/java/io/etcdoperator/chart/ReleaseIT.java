package io.etcdoperator.chart;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.etcdoperator.localkube.LocalKubernetes;
import io.etcdoperator.localkube.LocalKubernetesOptions;
import io.etcdoperator.localkube.node.ImageCatalogue;
import io.fabric8.kubernetes.api.model.ContainerStateWaiting;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A release as hack/release.sh pushes it, read back from a real registry (Debian's docker-registry on 127.0.0.1):
 * the image with its OCI labels, the SBOM attached to it and matching the jars the image ships, the chart that
 * `helm show` and `helm pull` find, naming the pushed image, and the install manifest naming the same image.
 */
class ReleaseIT {

    static final Path ROOT = ChartTest.ROOT;
    static final String VERSION = "0.0.0-test";
    static final Path WORK = ChartTest.MODULE.toAbsolutePath().resolve("target/release-it");
    static final String OCI_MANIFEST = "application/vnd.oci.image.manifest.v1+json";
    static final ObjectMapper JSON = new ObjectMapper();
    static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    static RegistryProcess registry;
    static Path out;
    static String helm;
    static String image;
    static String statusBefore;
    // helm's cache, config and data in target/: pulling a chart leaves nothing in the home directory
    static final Map<String, String> HELM_ENV = Map.of(
            "HELM_CACHE_HOME",
            WORK.resolve("helm/cache").toString(),
            "HELM_CONFIG_HOME",
            WORK.resolve("helm/config").toString(),
            "HELM_DATA_HOME",
            WORK.resolve("helm/data").toString());

    @BeforeAll
    static void release() throws Exception {
        run(List.of("rm", "-rf", WORK.toString()));
        statusBefore = String.join("\n", run(List.of("git", "-C", ROOT.toString(), "status", "--porcelain")));
        registry = RegistryProcess.start(WORK.resolve("registry"));
        helm = HelmBinary.path();
        image = registry.address() + "/etcd-operator:" + VERSION;
        long started = System.nanoTime();
        // --no-rebuild: the reactor has just packaged the operator; --allow-dirty: a checkout under work may be edited
        List<String> lines = run(List.of(
                ROOT.resolve("hack/release.sh").toString(),
                VERSION,
                "--registry",
                registry.address(),
                "--out",
                WORK.resolve("out").toString(),
                "--allow-dirty",
                "--no-rebuild"));
        out = Path.of(lines.getLast());
        System.out.printf("hack/release.sh took %d s%n", TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started));
        System.out.println(Files.readString(out.resolve("release.txt")));
    }

    @AfterAll
    static void stop() throws Exception {
        if (registry != null) {
            registry.close();
            // the pushed blobs (about 125 MiB) duplicate out/image; the e2e run that follows needs the disk
            run(List.of("rm", "-rf", WORK.resolve("registry/storage").toString()));
        }
    }

    @Test
    void imageInTheRegistryCarriesTheOciLabels() throws Exception {
        HttpResponse<byte[]> manifest = get("/v2/etcd-operator/manifests/" + VERSION, OCI_MANIFEST);
        assertThat(manifest.headers().firstValue("Content-Type")).hasValue(OCI_MANIFEST);
        JsonNode layout = JSON.readTree(out.resolve("image/oci/index.json").toFile())
                .get("manifests")
                .get(0);
        assertThat(manifest.headers().firstValue("Docker-Content-Digest"))
                .as("the registry holds the manifest hack/image.sh built")
                .hasValue(layout.get("digest").asText());
        String config =
                JSON.readTree(manifest.body()).get("config").get("digest").asText();
        JsonNode labels = JSON.readTree(
                        get("/v2/etcd-operator/blobs/" + config, "*/*").body())
                .get("config")
                .get("Labels");
        String revision =
                run(List.of("git", "-C", ROOT.toString(), "rev-parse", "HEAD")).getLast();
        assertThat(labels.get("org.opencontainers.image.version").asText()).isEqualTo(VERSION);
        assertThat(labels.get("org.opencontainers.image.source").asText())
                .isEqualTo("https://github.com/etcd-operator-java/etcd-operator");
        assertThat(labels.get("org.opencontainers.image.licenses").asText()).isEqualTo("Apache-2.0");
        assertThat(labels.get("org.opencontainers.image.revision").asText()).isEqualTo(revision);
    }

    /**
     * The SBOM is an artifact whose subject is the image manifest, at the tag {@code sha256-<digest>.sbom} (registry
     * 2.8 has no referrers API); its components are exactly the jars in the pushed image's /opt/etcd-operator/lib.
     */
    @Test
    void sbomIsAttachedAndListsTheJarsTheImageShips() throws Exception {
        HttpResponse<byte[]> imageManifest = get("/v2/etcd-operator/manifests/" + VERSION, OCI_MANIFEST);
        String digest =
                imageManifest.headers().firstValue("Docker-Content-Digest").orElseThrow();
        JsonNode sbom =
                JSON.readTree(get("/v2/etcd-operator/manifests/" + digest.replace(':', '-') + ".sbom", OCI_MANIFEST)
                        .body());
        assertThat(sbom.get("artifactType").asText()).isEqualTo("application/vnd.cyclonedx+json");
        assertThat(sbom.get("subject").get("digest").asText()).isEqualTo(digest);
        assertThat(sbom.get("subject").get("size").asLong()).isEqualTo(imageManifest.body().length);
        JsonNode layer = sbom.get("layers").get(0);
        assertThat(layer.get("mediaType").asText()).isEqualTo("application/vnd.cyclonedx+json");
        JsonNode bom = JSON.readTree(
                get("/v2/etcd-operator/blobs/" + layer.get("digest").asText(), "*/*")
                        .body());
        assertThat(bom.get("bomFormat").asText()).isEqualTo("CycloneDX");
        assertThat(bom.get("metadata").get("component").get("name").asText()).isEqualTo("etcd-operator");
        Set<String> components = new TreeSet<>();
        bom.get("components")
                .forEach(c -> components.add(
                        c.get("name").asText() + "-" + c.get("version").asText() + ".jar"));
        Set<String> shipped = new TreeSet<>();
        for (JsonNode imageLayer : JSON.readTree(imageManifest.body()).get("layers")) {
            shipped.addAll(jarsIn(imageLayer.get("digest").asText(), "opt/etcd-operator/lib/"));
        }
        assertThat(shipped).hasSizeGreaterThan(50);
        // the etcd port needs jetcd's generated stubs only: its client, and the Vert.x that client dials with, stay out
        assertThat(shipped)
                .anyMatch(jar -> jar.startsWith("jetcd-grpc-"))
                .noneMatch(jar -> jar.startsWith("jetcd-core-") || jar.startsWith("vertx-"));
        assertThat(components).isEqualTo(shipped);
        System.out.printf(
                "SBOM: %d components, %d bytes%n",
                components.size(), layer.get("size").asLong());
    }

    @Test
    void chartInTheRegistryHasTheReleaseVersion() throws Exception {
        List<String> chart = run(List.of(
                helm,
                "show",
                "chart",
                "oci://" + registry.address() + "/charts/etcd-operator",
                "--version",
                VERSION,
                "--plain-http"));
        assertThat(chart).contains("version: " + VERSION, "appVersion: " + VERSION);
    }

    @Test
    void pulledChartRendersThePushedImage() throws Exception {
        Path pulled = WORK.resolve("pulled");
        run(List.of(
                helm,
                "pull",
                "oci://" + registry.address() + "/charts/etcd-operator",
                "--version",
                VERSION,
                "--plain-http",
                "--untar",
                "--untardir",
                pulled.toString()));
        List<String> rendered = run(List.of(
                helm,
                "template",
                "etcd-operator",
                pulled.resolve("etcd-operator").toString(),
                "-n",
                "etcd-operator-system"));
        assertThat(rendered).contains("        image: " + image, "        - --operator-image=" + image);
    }

    /** The release's install.yaml is dist/install.yaml with only the image and the version changed. */
    @Test
    void installManifestNamesTheSameImage() throws IOException {
        String manifest = Files.readString(out.resolve("install.yaml"));
        assertThat(manifest.lines()).contains("        image: " + image, "        - --operator-image=" + image);
        String chartVersion = Files.readAllLines(ChartTest.CHART.resolve("Chart.yaml")).stream()
                .filter(line -> line.startsWith("version: "))
                .findFirst()
                .orElseThrow()
                .substring("version: ".length());
        String asDefault = manifest.replace(registry.address() + "/", "ghcr.io/etcd-operator-java/")
                .replace(VERSION, chartVersion);
        assertThat(asDefault).isEqualTo(Files.readString(ROOT.resolve("dist/install.yaml")));
    }

    /**
     * As a user installs it: `helm install oci://…` of the pushed chart onto a cluster whose nodes pull from the
     * registry; the operator runs from the image the node pulled (its digest in imageID). A tag the registry lacks
     * leaves its Pod in ErrImagePull with the registry's answer.
     */
    @Test
    void helmInstallsTheChartFromTheRegistryAndTheNodesPullTheImage() throws Exception {
        Path work = WORK.resolve("install");
        ImageCatalogue images = ImageCatalogue.withContainerEtcdImages(work.resolve("images"))
                .registry(registry.address(), registry.address(), work.resolve("images/pulled"))
                .build();
        try (LocalKubernetes cluster = LocalKubernetes.start(
                        work.resolve("cluster"),
                        LocalKubernetesOptions.defaults().withImages(images));
                KubernetesClient client = cluster.client()) {
            for (Path crd :
                    Files.list(ROOT.resolve("config/crd/bases")).sorted().toList()) {
                client.load(Files.newInputStream(crd))
                        .items()
                        .forEach(object -> client.resource(object).create());
            }
            // crds.install=false: kube-apiserver 1.20 refuses the CRDs' CEL fields under Helm's strict validation
            run(List.of(
                    helm,
                    "install",
                    "etcd-operator",
                    "oci://" + registry.address() + "/charts/etcd-operator",
                    "--version",
                    VERSION,
                    "--plain-http",
                    "--kubeconfig",
                    cluster.kubeconfig().toString(),
                    "--namespace",
                    "etcd-operator-system",
                    "--create-namespace",
                    "--set",
                    "crds.install=false",
                    "--wait",
                    "--timeout",
                    "180s"));
            String digest = get("/v2/etcd-operator/manifests/" + VERSION, OCI_MANIFEST)
                    .headers()
                    .firstValue("Docker-Content-Digest")
                    .orElseThrow();
            assertThat(client.pods().inNamespace("etcd-operator-system").list().getItems())
                    .flatExtracting(pod -> pod.getStatus().getContainerStatuses())
                    .filteredOn(ContainerStatus::getReady)
                    .extracting(ContainerStatus::getImage, ContainerStatus::getImageID)
                    .containsExactly(tuple(image, registry.address() + "/etcd-operator@" + digest));

            String missing = registry.address() + "/etcd-operator:0.0.0-not-pushed";
            client.resource(new PodBuilder()
                            .withNewMetadata()
                            .withName("not-pushed")
                            .withNamespace("default")
                            .endMetadata()
                            .withNewSpec()
                            .addNewContainer()
                            .withName("operator")
                            .withImage(missing)
                            .endContainer()
                            .endSpec()
                            .build())
                    .create();
            ContainerStateWaiting waiting = client.pods()
                    .inNamespace("default")
                    .withName("not-pushed")
                    .waitUntilCondition(
                            pod -> pod.getStatus().getContainerStatuses() != null
                                    && !pod.getStatus().getContainerStatuses().isEmpty()
                                    && pod.getStatus()
                                                    .getContainerStatuses()
                                                    .getFirst()
                                                    .getState()
                                                    .getWaiting()
                                            != null
                                    && "ErrImagePull"
                                            .equals(pod.getStatus()
                                                    .getContainerStatuses()
                                                    .getFirst()
                                                    .getState()
                                                    .getWaiting()
                                                    .getReason()),
                            60,
                            TimeUnit.SECONDS)
                    .getStatus()
                    .getContainerStatuses()
                    .getFirst()
                    .getState()
                    .getWaiting();
            assertThat(waiting.getMessage()).contains("failed to pull image \"" + missing + "\"", "manifest unknown");
        }
    }

    @Test
    void leavesNoTrackedFileChanged() throws Exception {
        assertThat(String.join("\n", run(List.of("git", "-C", ROOT.toString(), "status", "--porcelain"))))
                .isEqualTo(statusBefore);
    }

    /** The names of the regular files under {@code dir} in a gzip'd tar layer, read from the registry. */
    private static Set<String> jarsIn(String layerDigest, String dir) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base() + "/v2/etcd-operator/blobs/" + layerDigest))
                .build();
        HttpResponse<InputStream> response = HTTP.send(request, HttpResponse.BodyHandlers.ofInputStream());
        assertThat(response.statusCode()).isEqualTo(200);
        Set<String> names = new TreeSet<>();
        try (InputStream tar = new BufferedInputStream(new GZIPInputStream(response.body(), 1 << 16), 1 << 16)) {
            String longName = null;
            for (byte[] header; (header = tar.readNBytes(512)).length == 512 && header[0] != 0; ) {
                long size = Long.parseLong(field(header, 124, 12).trim(), 8);
                char type = (char) header[156];
                byte[] data = type == 'x' || type == 'L' ? tar.readNBytes((int) size) : null;
                if (data == null) {
                    tar.skipNBytes(size);
                }
                tar.skipNBytes((512 - size % 512) % 512);
                if (data != null) {
                    // a pax header's path=, or GNU's long name, names the entry that follows
                    longName = type == 'L' ? new String(data, StandardCharsets.UTF_8).replace("\0", "") : paxPath(data);
                    continue;
                }
                String prefix = field(header, 345, 155);
                String name =
                        longName != null ? longName : (prefix.isEmpty() ? "" : prefix + "/") + field(header, 0, 100);
                longName = null;
                name = name.startsWith("./") ? name.substring(2) : name;
                if ((type == '0' || type == '\0') && name.startsWith(dir) && name.indexOf('/', dir.length()) < 0) {
                    names.add(name.substring(dir.length()));
                }
            }
        }
        return names;
    }

    private static String field(byte[] header, int offset, int length) {
        int end = offset;
        while (end < offset + length && header[end] != 0) {
            end++;
        }
        return new String(header, offset, end - offset, StandardCharsets.UTF_8);
    }

    private static String paxPath(byte[] data) {
        for (String record : new String(data, StandardCharsets.UTF_8).split("\n")) {
            int equals = record.indexOf('=');
            if (equals > 0 && record.substring(record.indexOf(' ') + 1, equals).equals("path")) {
                return record.substring(equals + 1);
            }
        }
        return null;
    }

    private static String base() {
        return "http://" + registry.address();
    }

    private static HttpResponse<byte[]> get(String path, String accept) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base() + path))
                .header("Accept", accept)
                .build();
        HttpResponse<byte[]> response = HTTP.send(request, HttpResponse.BodyHandlers.ofByteArray());
        assertThat(response.statusCode())
                .as("GET %s: %s", path, new String(response.body(), StandardCharsets.UTF_8))
                .isEqualTo(200);
        return response;
    }

    private static List<String> run(List<String> command) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
        builder.environment().putAll(HELM_ENV);
        Process process = builder.start();
        String stdout = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.waitFor() != 0) {
            throw new AssertionError(command + " failed: " + stdout);
        }
        return new ArrayList<>(stdout.lines().toList());
    }
}
